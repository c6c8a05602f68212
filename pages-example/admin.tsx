// The admin section: a page group with a dashboard whose task counts are live
// (server-sent events), a user page with a refreshable activity partial, a
// middleware and an error page for the whole group.

import { HttpError, id, idTarget, urlFor, type Middleware, type PageRequest, route } from 'pagetree';
import { requireLogin } from 'pagetree/auth';
import { getOr404, parsePath } from 'pagetree/forms';
import { htmxDetails } from 'pagetree/htmx';
import { EventHub, type Broker } from 'pagetree/live';
import { z } from 'zod';
import { Layout } from './layout.tsx';
import { LoginPage, LogoutPage, type LoginDeps } from './login.tsx';
import type { Activity, TaskCounts, User } from './store.ts';
import type { Deps } from './tasks.tsx';

/** What the admin pages are built with: the store, the broker, and which htmx the pages load ("4" or "2"). */
export interface AdminDeps extends Deps, LoginDeps {
  htmxVersion: string;
  /** Carries each change to the tasks to the dashboards of every instance. */
  broker: Broker;
}

/** The broker topic of changes to the tasks. */
export const tasksTopic = 'tasks';

/** Admin pages are personal: never cached, marked for the browser. */
const privatePages: Middleware = (next) => async (req) => {
  const res = await next(req);
  res.headers.set('cache-control', 'private, no-store');
  res.headers.set('x-robots-tag', 'noindex');
  return res;
};

export class Dashboard {
  readonly #deps: AdminDeps;

  constructor(deps: AdminDeps) {
    this.#deps = deps;
  }

  async props() {
    const [users, counts] = await Promise.all([this.#deps.store.users(), this.#deps.store.counts()]);
    return { users, counts };
  }

  page(props: { users: User[]; counts: TaskCounts }) {
    // The counts are a live region fed by the event stream, for the htmx the pages load. htmx 4's hx-sse
    // (htmx.org/dist/ext) connects with hx-sse:connect and swaps each unnamed event into the element. htmx 2's sse
    // extension (htmx-ext-sse) is enabled by hx-ext, connects with sse-connect and swaps the events sse-swap names
    // ("message": the unnamed ones). One set, not both: htmx 4 warns about htmx 2's names. An undefined attribute
    // is left out.
    // A `refresh` event (the dashboard missed changes that can no longer be sent) reloads the counts from this page.
    // htmx 2 dispatches it as "sse:refresh" on the element that connects, which listens for it itself. htmx 4
    // dispatches "refresh" there, but hx-trigger on that element says when hx-sse connects, so the element around it
    // listens (the event bubbles) and reloads the counts into it.
    const events = urlFor(DashboardEvents);
    const reload = urlFor(Dashboard);
    const htmx2 = this.#deps.htmxVersion === '2';
    return (
      <Layout title="Admin">
        <div
          class="live"
          hx-get={htmx2 ? undefined : reload}
          hx-trigger={htmx2 ? undefined : 'refresh'}
          hx-target={htmx2 ? undefined : idTarget(this.counts)}
        >
          <p
            class="counts"
            id={id(this.counts)}
            aria-live="polite"
            hx-sse:connect={htmx2 ? undefined : events}
            hx-ext={htmx2 ? 'sse' : undefined}
            sse-connect={htmx2 ? events : undefined}
            sse-swap={htmx2 ? 'message' : undefined}
            hx-get={htmx2 ? reload : undefined}
            hx-trigger={htmx2 ? 'sse:refresh' : undefined}
          >
            {this.counts(props)}
          </p>
        </div>
        <form class="logout" action={urlFor(LogoutPage)} method="post">
          <button type="submit">Log out</button>
        </form>
        <table class="users">
          <thead>
            <tr>
              <th>Name</th>
              <th>Role</th>
            </tr>
          </thead>
          <tbody>
            {props.users.map((u) => (
              <tr>
                <td>
                  <a href={urlFor(UserPage, { userId: u.id })} safe>
                    {u.name}
                  </a>
                </td>
                <td safe>{u.role}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </Layout>
    );
  }

  /** The task counts; DashboardEvents sends them again whenever the tasks change. */
  counts(props: { counts: TaskCounts }) {
    return <Counts {...props.counts} />;
  }
}

/** "2 open · 1 done · 3 tasks" */
export function Counts(props: TaskCounts): JSX.Element {
  return (
    <>
      <b class="open">{props.open}</b> open · <b class="done">{props.done}</b> done · <b class="total">{props.total}</b>{' '}
      {props.total === 1 ? 'task' : 'tasks'}
    </>
  );
}

/**
 * GET /admin/events: the dashboard's counts as server-sent events, one whenever the tasks change, until the
 * dashboard goes away.
 */
export class DashboardEvents {
  readonly #counts: EventHub;

  constructor(deps: AdminDeps) {
    const store = deps.store;
    // A change to the tasks, on any instance, is published on the broker's "tasks" topic (app.tsx). While a
    // dashboard is open here, the hub follows the topic: it renders the counts once per change, one change at a time
    // (in order, so older counts never overwrite newer ones), and sends the same bytes to every open dashboard, with
    // the message's id. A dashboard that reconnects gets what it missed, or a refresh event (see Dashboard).
    this.#counts = new EventHub({
      broker: deps.broker,
      topic: tasksTopic,
      render: async () => <Counts {...await store.counts()} />,
    });
  }

  props(req: PageRequest) {
    return this.#counts.stream(req);
  }
}

/** A user's path: the id, a positive whole number; any other value names no user (a 404). */
const UserPath = z.object({ userId: z.coerce.number().int().positive() });

export class UserPage {
  readonly #deps: Deps;

  constructor(deps: Deps) {
    this.#deps = deps;
  }

  async props(req: PageRequest) {
    const { userId } = parsePath(req, UserPath, 'No such user');
    const user = await getOr404(this.#deps.store.user(userId), 'No such user');
    return { user, activity: await this.#deps.store.activity(user.id) };
  }

  page(props: { user: User; activity: Activity[] }) {
    return (
      <Layout title={props.user.name}>
        <dl>
          <dt>Email</dt>
          <dd safe>{props.user.email}</dd>
          <dt>Role</dt>
          <dd safe>{props.user.role}</dd>
        </dl>
        <h2>Activity</h2>
        <button hx-get={urlFor(UserPage, { userId: props.user.id })} hx-target={idTarget(this.activityList)}>
          Refresh
        </button>
        <div id={id(this.activityList)}>{this.activityList(props)}</div>
        <p>
          <a href={urlFor(Admin)}>All users</a>
        </p>
      </Layout>
    );
  }

  activityList(props: { activity: Activity[] }) {
    if (props.activity.length === 0) return <p class="empty">No activity yet.</p>;
    return (
      <ul>
        {props.activity.map((a) => (
          <li>
            <time safe>{a.at}</time> <span safe>{a.what}</span>
          </li>
        ))}
      </ul>
    );
  }
}

/** /admin: a page group. GET /admin redirects to /admin/ (Go's ServeMux does it). */
export class Admin {
  index = route('/{$} Dashboard', Dashboard);
  events = route('GET /events', DashboardEvents);
  user = route('/users/{userId} User', UserPage);

  middlewares() {
    // Logged in or sent to the login page (htmx: HX-Location), which brings the visitor back here.
    return [requireLogin({ login: LoginPage, loggedIn: (s) => s.data.email !== undefined }), privatePages];
  }

  /** The section's errors (GET /admin/users/999 → 404 "No such user") in the admin look. */
  error(err: unknown) {
    const status = err instanceof HttpError ? err.status : 500;
    // Only an HttpError's message is meant for users; anything else is a bug, logged with its details.
    const message = err instanceof HttpError ? err.message : 'Something went wrong.';
    const shown = (
      <p class="error" role="alert">
        <b>{status}</b> <span safe>{message}</span>
      </p>
    );
    if (htmxDetails().swapsIntoElement) return shown; // htmx 4 swaps errors into the element too
    return (
      <Layout title="Admin">
        {shown}
        <p>
          <a href={urlFor(Admin)}>All users</a>
        </p>
      </Layout>
    );
  }
}
