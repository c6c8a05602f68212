// The example app: a task list and an admin section, on pagetree.
//
//   /                       Tasks (search partial: the task list); POST adds a task → the add form, list and count
//   /tasks/{id}             Edit task: the form; POST saves it (422 with errors, or "Task updated" on the list);
//                           DELETE deletes the task → the task list
//   POST /tasks/{id}/toggle toggle a task       → the task list
//   GET /tasks/{id}/comments the task's comments, a WebSocket (the edit page connects): live on every instance
//   /admin/                 Dashboard (/admin redirects here), with live task counts   } logged in only: else
//   GET /admin/events       the counts as server-sent events                         } to /login?next=…
//   /admin/users/{userId}   a user, with a refreshable activity partial              }
//   /login                  Log in: the form; POST checks it and goes back to `next`
//   POST /logout            ends the session (on every instance: sessions are kept on the server)
//   GET /static/{path...}   CSS, icon, app.js, and htmx and its SSE extension from their npm packages
//   anything else           the app's own 404 page (NotFoundPage)

import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { ServeMux, mount, route, type Route, type Tree } from 'pagetree';
import { MemorySessionStore, crossOriginProtection, type SessionStore, type ThrottleStore } from 'pagetree/auth';
import { MemoryBroker, liveReload, type Broker } from 'pagetree/live';
import { staticFiles, type StaticFiles } from 'pagetree/static';
import { Admin, DashboardEvents, UserPage, tasksTopic, type AdminDeps } from './admin.tsx';
import { LoginPage, LogoutPage, type AdminAccount } from './login.tsx';
import { TaskComments } from './comments.tsx';
import { NotFoundPage } from './not-found.tsx';
import type { Store } from './store.ts';
import { SqliteStore } from './store-sqlite.ts';
import { TaskPage, TasksPage, ToggleTask } from './tasks.tsx';

declare module 'pagetree' {
  interface Register {
    root: App;
    /** A logged-in session carries the admin's e-mail address. */
    session: { email: string };
  }
}

/** htmx 4 by default; "2" serves htmx 2 (the `htmx2` alias of htmx.org 2). */
function htmxScript(version: string): string {
  return require.resolve(version === '2' ? 'htmx2/dist/htmx.min.js' : 'htmx.org/dist/htmx.min.js');
}

/** The WebSocket extension of that htmx: htmx 4 ships hx-ws; htmx 2's is the htmx-ext-ws package. */
function wsScript(version: string): string {
  return require.resolve(version === '2' ? 'htmx-ext-ws/dist/ws.min.js' : 'htmx.org/dist/ext/hx-ws.min.js');
}

/** The server-sent events extension of that htmx: htmx 4 ships hx-sse; htmx 2's is the htmx-ext-sse package. */
function sseScript(version: string): string {
  return require.resolve(version === '2' ? 'htmx-ext-sse/dist/sse.min.js' : 'htmx.org/dist/ext/hx-sse.min.js');
}

export class App {
  tasks = route('/{$} Tasks', TasksPage);
  task = route('/tasks/{taskId} Edit task', TaskPage);
  toggle = route('POST /tasks/{taskId}/toggle', ToggleTask);
  comments = route('/tasks/{taskId}/comments', TaskComments);
  admin = route('/admin Admin', Admin);
  login = route('/login Log in', LoginPage);
  logout = route('/logout', LogoutPage);
  assets: Route<'GET /static/{path...}', StaticFiles>;

  constructor(deps: AdminDeps) {
    const files = {
      'htmx.min.js': htmxScript(deps.htmxVersion),
      'htmx-sse.js': sseScript(deps.htmxVersion),
      'htmx-ws.js': wsScript(deps.htmxVersion),
    };
    this.assets = route('GET /static/{path...}', staticFiles(join(__dirname, '..', 'static'), { files }));
  }
}

export interface AppOptions {
  /** SQLite file, or ":memory:". Default: pages-example/data/tasks.db. Not with `store`. */
  databasePath?: string;
  /** A store of your own instead of SQLite, e.g. `await PostgresStore.connect(url)`; `app.store.close()` closes it. */
  store?: Store;
  /**
   * Carries each change to the tasks to every instance's dashboards, and each new comment to every page of its task.
   * Default: a MemoryBroker (one instance).
   */
  broker?: Broker;
  /** Where failed logins are counted, shared by every instance. Default: this process's memory. */
  throttle?: ThrottleStore;
  /**
   * Where sessions are kept, shared by every instance (main.ts: Postgres with DATABASE_URL). The cookie carries only
   * the session's id, so a logout ends the session everywhere: a copy of the cookie taken before opens nothing.
   * Default: this process's memory (a restart logs everyone out).
   */
  sessions?: SessionStore;
  /** "4" (default) or "2": which htmx the pages load. */
  htmxVersion?: string;
  /** Development: reload the open tab when the server restarts (`npm run dev`). */
  liveReload?: boolean;
  /** Signs the flash cookie and seals the session cookie; at least 32 characters. Default: a random one per start (flash messages and logins then do not survive a restart). */
  secret?: string;
  /** The admin account (main.ts: ADMIN_EMAIL, ADMIN_PASSWORD). Default: admin@example.com with a random password. */
  admin?: AdminAccount;
}

/**
 * Builds the app: the store (SQLite unless one is given), the mux and the mounted tree, with its URLs checked at
 * boot.
 * @example const { mux, store } = createApp({ databasePath: ':memory:' }); await store.addTask('Milk');
 */
export function createApp(options: AppOptions = {}): {
  mux: ServeMux;
  tree: Tree<App>;
  store: Store;
  broker: Broker;
  admin: AdminAccount;
} {
  if (options.store && options.databasePath !== undefined) {
    throw new TypeError('createApp: give databasePath (SQLite) or store, not both');
  }
  const store = options.store ?? new SqliteStore(options.databasePath ?? join(__dirname, 'data', 'tasks.db'));
  const mux = new ServeMux();
  const admin = options.admin ?? { email: 'admin@example.com', password: randomBytes(12).toString('base64url') };
  const broker = options.broker ?? new MemoryBroker();
  // Every change made here is published once; each instance's dashboards hear it through the broker.
  store.subscribe(() => {
    broker
      .publish(tasksTopic)
      .catch((err: unknown) => console.error('the change to the tasks was not published:', err));
  });
  const deps: AdminDeps = {
    store,
    broker,
    throttle: options.throttle,
    htmxVersion: options.htmxVersion ?? '4',
    admin,
  };
  const tree = mount(mux, App, '/', 'Tasks', {
    deps,
    // Unsafe methods (the task actions) must come from this site's own pages: CSRF protection as in Go 1.25.
    middlewares: options.liveReload ? [crossOriginProtection(), liveReload(mux)] : [crossOriginProtection()],
    // A page that hangs gets a 503 instead of holding the connection.
    timeout: 10_000,
    // Unknown addresses get the app's own page (405 and Go's redirects stay as they are).
    notFound: NotFoundPage,
    // Signs the flash cookie ("Task updated"): a tampered cookie is ignored.
    secret: options.secret ?? randomBytes(32).toString('base64url'),
    // The logins on the server, not in the cookie: a logout deletes the stored session, so the cookie it was in
    // (kept by an attacker, or in another tab) opens nothing afterwards, here or on another instance.
    session: { store: options.sessions ?? new MemorySessionStore() },
  });
  // Every dynamic link resolves, or the app does not start.
  tree.validate([
    [TasksPage],
    [TaskPage, { taskId: 1 }],
    [ToggleTask, { taskId: 1 }],
    [TaskComments, { taskId: 1 }],
    [Admin],
    [DashboardEvents],
    [UserPage, { userId: 1 }],
    [LoginPage],
    [LogoutPage],
  ]);
  return { mux, tree, store, broker, admin };
}
