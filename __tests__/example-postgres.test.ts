// The example's tasks and users on either store, through HTTP (mux.fetch): the same rows run on SQLite in memory and
// on a throwaway Postgres (support/services.ts), and must answer alike. Then what only Postgres is for: two
// instances on one database see each other's writes, and instances starting together make the schema once; and, as
// `npm start` runs them (DATABASE_URL), they share the sessions and the login throttle.

import pg from 'pg';
import { htmxRequest } from '../core/index.ts';
import { UserPage } from '../pages-example/admin.tsx';
import { createApp } from '../pages-example/app.tsx';
import type { Store } from '../pages-example/store.ts';
import { PostgresStore } from '../pages-example/store-postgres.ts';
import { SqliteStore } from '../pages-example/store-sqlite.ts';
import { TaskPage, TasksPage } from '../pages-example/tasks.tsx';
import { sharedEnv, startExample, type ExampleProcess } from './support/example-process.ts';
import { usePostgres } from './support/services.ts';
import { sendFrom } from './support/node-http.ts';

type App = ReturnType<typeof createApp>;

const postgres = usePostgres();

/** A Postgres store on an empty database: the tables dropped first, so ids start at 1 as in a new SQLite file. */
async function freshPostgres(): Promise<PostgresStore> {
  const pool = new pg.Pool({ connectionString: postgres.url });
  await pool.query('DROP TABLE IF EXISTS comments, activity, tasks, users');
  await pool.end();
  return PostgresStore.connect(postgres.url);
}

const list = TasksPage.prototype.taskList;

/** The titles on the home page's list for search `q`, as htmx asks for it (the list alone). */
async function search(app: App, q = ''): Promise<string[]> {
  const res = await app.mux.fetch(htmxRequest(`/?q=${encodeURIComponent(q)}`, { target: list }));
  expect(res.status).toBe(200);
  return [...(await res.text()).matchAll(/<span class="title">([^<]*)<\/span>/g)].map((m) => m[1]!);
}

function add(app: App, title: string): Promise<Response> {
  return app.mux.fetch(htmxRequest('/', { form: { title }, target: TasksPage.prototype.addForm }));
}

/** Logs in as the example's admin through the login form; returns the session cookie (`name=value`). */
async function logIn(app: App): Promise<string> {
  const res = await app.mux.fetch(
    new Request('http://localhost/login', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin' },
      body: new URLSearchParams({ email: app.admin.email, password: app.admin.password }),
    }),
  );
  expect(res.status).toBe(303);
  return res.headers.getSetCookie()[0]!.split(';')[0]!;
}

/** The dashboard's counts, "open/done/total", and the home page's open count, as a logged-in admin sees them. */
async function counts(app: App, cookie: string): Promise<[string, string]> {
  const dashboard = await (await app.mux.fetch(new Request('http://localhost/admin/', { headers: { cookie } }))).text();
  const home = await (await app.mux.fetch(new Request('http://localhost/'))).text();
  const c = /<b class="open">(\d+)<\/b> open · <b class="done">(\d+)<\/b> done · <b class="total">(\d+)<\/b>/.exec(
    dashboard,
  );
  return [c ? `${c[1]}/${c[2]}/${c[3]}` : 'no counts', /id="tasks-open-count"[^>]*>([^<]*)</.exec(home)?.[1] ?? ''];
}

const stores: [string, () => Promise<Store>][] = [
  ['SQLite', async () => new SqliteStore(':memory:')],
  ['Postgres', freshPostgres],
];

describe.each(stores)('the example on %s', (_, open) => {
  let app: App;
  let cookie: string;
  beforeEach(async () => {
    app = createApp({ store: await open() });
    cookie = await logIn(app);
  });
  afterEach(() => app.store.close());

  test('adding, toggling, renaming and deleting tasks; the counts follow', async () => {
    expect(await counts(app, cookie)).toEqual(['0/0/0', '0 open tasks']);
    for (const title of ['Milk', 'Eggs', 'Bread']) expect((await add(app, title)).status).toBe(200);
    expect(await search(app)).toEqual(['Milk', 'Eggs', 'Bread']);
    expect(await counts(app, cookie)).toEqual(['3/0/3', '3 open tasks']);

    const toggled = await app.mux.fetch(htmxRequest('/tasks/2/toggle', { method: 'POST', target: list }));
    expect(await toggled.text()).toContain('<li class="done"><button class="toggle" hx-post="/tasks/2/toggle"');
    expect(await counts(app, cookie)).toEqual(['2/1/3', '2 open tasks']);

    const renamed = await app.mux.fetch(
      htmxRequest('/tasks/3', { form: { title: 'Rye bread' }, target: TaskPage.prototype.editForm }),
    );
    expect([renamed.status, renamed.headers.get('hx-location')]).toEqual([200, '/']);
    const edit = await (await app.mux.fetch(new Request('http://localhost/tasks/3'))).text();
    expect(edit).toContain('value="Rye bread"');

    const deleted = await app.mux.fetch(htmxRequest('/tasks/1', { method: 'DELETE', target: list }));
    expect(deleted.status).toBe(200);
    expect(await search(app)).toEqual(['Eggs', 'Rye bread']);
    expect(await counts(app, cookie)).toEqual(['1/1/2', '1 open task']);
    // Ids are not reused after a delete, as SQLite's AUTOINCREMENT promises.
    await add(app, 'Jam');
    expect((await app.mux.fetch(new Request('http://localhost/tasks/4'))).status).toBe(200);
  });

  test('the search matches parts of titles, ASCII letters in any case, and %, _ and \\ literally', async () => {
    const titles = [
      'buy milk',
      'MILK shake',
      '100% juice',
      '100 juices',
      'snake_case',
      'snakecase',
      'C:\\path',
      'Café',
    ];
    for (const title of titles) await add(app, title);
    const rows: [string, string[]][] = [
      ['', titles],
      ['milk', ['buy milk', 'MILK shake']],
      ['Milk', ['buy milk', 'MILK shake']],
      ['%', ['100% juice']],
      ['0% j', ['100% juice']],
      ['_', ['snake_case']],
      ['e_c', ['snake_case']],
      ['\\', ['C:\\path']],
      ['café', ['Café']],
      ['CAFÉ', []], // SQLite's LIKE folds ASCII letters only
      ['nothing', []],
    ];
    const got: [string, string[]][] = [];
    for (const [q] of rows) got.push([q, await search(app, q)]);
    expect(got).toEqual(rows);
  });

  test('the users and a user page with its activity, newest first; unknown ids are 404s', async () => {
    const dashboard = await (
      await app.mux.fetch(new Request('http://localhost/admin/', { headers: { cookie } }))
    ).text();
    expect(
      [...dashboard.matchAll(/<a href="\/admin\/users\/(\d)">([^<]+)<\/a><\/td><td>(\w+)</g)].map((m) => m.slice(1)),
    ).toEqual([
      ['1', 'Ada Lovelace', 'admin'],
      ['2', 'Grace Hopper', 'editor'],
      ['3', 'Alan Turing', 'viewer'],
    ]);
    await app.store.recordActivity(2, 'taught COBOL');
    const activity = await app.mux.fetch(
      htmxRequest('/admin/users/2', { target: UserPage.prototype.activityList, headers: { cookie } }),
    );
    const items = [...(await activity.text()).matchAll(/<li><time>([^<]+)<\/time> <span>([^<]+)<\/span><\/li>/g)];
    expect(items.map((m) => m[2])).toEqual(['taught COBOL', 'found the first bug']);
    for (const [, at] of items) {
      // SQLite's datetime('now'): UTC, to the second.
      expect(at).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
      expect(Math.abs(Date.parse(at!.replace(' ', 'T') + 'Z') - Date.now())).toBeLessThan(60_000);
    }
    const user = await (
      await app.mux.fetch(new Request('http://localhost/admin/users/3', { headers: { cookie } }))
    ).text();
    expect(user).toContain('<dd>alan@example.com</dd>');
    expect(user).toContain('<p class="empty">No activity yet.</p>');
    for (const path of ['/admin/users/99', '/admin/users/9999999999', '/admin/users/1.5', '/admin/users/x']) {
      const res = await app.mux.fetch(new Request('http://localhost' + path, { headers: { cookie } }));
      expect([path, res.status]).toEqual([path, 404]);
    }
    for (const path of ['/tasks/99', '/tasks/9999999999']) {
      expect([path, (await app.mux.fetch(new Request('http://localhost' + path))).status]).toEqual([path, 404]);
    }
  });

  test('a title with a NUL character is refused with the form (422), in either store', async () => {
    const res = await add(app, 'a\0b');
    expect(res.status).toBe(422);
    expect(await res.text()).toContain('A title cannot contain a NUL character');
    expect(await app.store.tasks()).toEqual([]);
  });
});

describe('the example on Postgres, as several instances', () => {
  test('two instances on one database see each other’s writes', async () => {
    const a = createApp({ store: await freshPostgres() });
    const b = createApp({ store: await PostgresStore.connect(postgres.url) });
    try {
      const [cookieA, cookieB] = [await logIn(a), await logIn(b)];
      await add(a, 'Milk');
      await add(b, 'Eggs');
      expect([await search(a), await search(b)]).toEqual([
        ['Milk', 'Eggs'],
        ['Milk', 'Eggs'],
      ]);
      await b.mux.fetch(htmxRequest('/tasks/1/toggle', { method: 'POST', target: list }));
      expect(await counts(a, cookieA)).toEqual(['1/1/2', '1 open task']);
      await a.mux.fetch(htmxRequest('/tasks/2', { form: { title: 'Oat milk' }, target: TaskPage.prototype.editForm }));
      expect(await search(b)).toEqual(['Milk', 'Oat milk']);
      await b.mux.fetch(htmxRequest('/tasks/1', { method: 'DELETE', target: list }));
      expect(await search(a)).toEqual(['Oat milk']);
      // A task deleted by the other instance is gone here too: its toggle is a 404.
      expect((await a.mux.fetch(htmxRequest('/tasks/1/toggle', { method: 'POST', target: list }))).status).toBe(404);
      expect(await counts(b, cookieB)).toEqual(['1/0/1', '1 open task']);
    } finally {
      await a.store.close();
      await b.store.close();
    }
  });

  test('instances starting together make the schema and the first users once', async () => {
    // One pool of four connections, shared: the four starts run on four sessions at once.
    const pool = new pg.Pool({ connectionString: postgres.url });
    try {
      await pool.query('DROP TABLE IF EXISTS comments, activity, tasks, users');
      const started = await Promise.all(Array.from({ length: 4 }, () => PostgresStore.connect(pool)));
      const [users, activity] = await Promise.all([started[0]!.users(), started[3]!.activity(1)]);
      expect([users.length, activity.map((a) => a.what)]).toEqual([3, ['wrote the first program']]);
      for (const store of started) await store.close(); // the pool is ours: close() leaves it open
      expect((await pool.query('SELECT count(*)::integer AS n FROM users')).rows).toEqual([{ n: 3 }]);
    } finally {
      await pool.end();
    }
  });

  test('a database that cannot be reached fails the start with its error', async () => {
    await expect(PostgresStore.connect('postgres://postgres@127.0.0.1:1/postgres')).rejects.toThrow(/ECONNREFUSED/);
  });
});

describe('the example on Postgres, as `npm start` runs two instances', () => {
  // Two child processes start (tsx compiles the example in each): seconds on a loaded machine.
  const starts = 60_000;
  const cleanups: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  /** Two instances on a database of their own, as `npm start` with DATABASE_URL starts them. */
  async function twoInstances(name: string): Promise<[ExampleProcess, ExampleProcess]> {
    const client = new pg.Client({ connectionString: postgres.url });
    await client.connect();
    await client.query(`CREATE DATABASE ${name}`);
    await client.end();
    const env = { DATABASE_URL: postgres.url.replace(/\/postgres$/, `/${name}`) };
    const [a, b] = await Promise.all([startExample(env), startExample(env)]);
    cleanups.push(a.kill, b.kill);
    return [a, b];
  }

  /** A request to `to` from the address `from` (any 127.x.y.z): its status, Location and session cookie. */
  function send(
    to: ExampleProcess,
    from: string,
    method: string,
    path: string,
    headers: Record<string, string> = {},
    body = '',
  ) {
    return sendFrom(to.port, from, method, path, headers, body);
  }
  const logIn = (to: ExampleProcess, from: string, password: string) =>
    send(
      to,
      from,
      'POST',
      '/login?next=%2Fadmin%2F',
      { 'content-type': 'application/x-www-form-urlencoded' },
      new URLSearchParams({ email: sharedEnv.ADMIN_EMAIL, password }).toString(),
    );

  test(
    'a logout on one instance ends the session on both: a cookie kept from before opens nothing',
    async () => {
      const [a, b] = await twoInstances('logout_everywhere');
      const { cookie } = await logIn(a, '127.0.0.1', sharedEnv.ADMIN_PASSWORD);
      expect(cookie).toMatch(/^pagetree-session=v1\./);
      for (const on of [a, b])
        expect((await send(on, '127.0.0.1', 'GET', '/admin/', { cookie: cookie! })).status).toBe(200);
      expect((await send(b, '127.0.0.1', 'POST', '/logout', { cookie: cookie! })).status).toBe(303);
      for (const on of [a, b]) {
        const after = await send(on, '127.0.0.1', 'GET', '/admin/', { cookie: cookie! });
        expect([on.port, after.status, after.location]).toEqual([on.port, 303, '/login?next=%2Fadmin%2F']);
      }
    },
    starts,
  );

  test(
    'five wrong passwords lock out their address on both instances; the admin elsewhere logs in',
    async () => {
      const [a, b] = await twoInstances('pair_throttle');
      for (let i = 0; i < 5; i++) expect((await logIn(i % 2 ? a : b, '127.0.0.1', 'wrong')).status).toBe(422);
      for (const on of [a, b]) expect((await logIn(on, '127.0.0.1', sharedEnv.ADMIN_PASSWORD)).status).toBe(429);
      expect((await logIn(b, '127.0.0.2', sharedEnv.ADMIN_PASSWORD)).status).toBe(303);
    },
    starts,
  );
});
