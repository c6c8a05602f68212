// `npm start`: serves the example app on PORT (default 3000).
// The tasks and users are kept in SQLite (pages-example/data/tasks.db; DATABASE_PATH picks another file), or in
// Postgres with DATABASE_URL=postgres://user:password@host:5432/db (the tables are made at start), which several
// instances can share: their dashboards and a task's comments then hear each other's changes through Postgres
// LISTEN/NOTIFY, or through Redis pub/sub with REDIS_URL=redis://host:6379 as well, and failed logins are counted
// there. Sessions are kept in Postgres with DATABASE_URL, else in Redis with REDIS_URL, else in this process's
// memory: a logout ends the session on every instance. HTMX_VERSION=2 serves htmx 2 instead of htmx 4;
// PAGETREE_SECRET (32+ characters) signs the flash cookie and seals the session cookie, so a message and a login
// survive a restart (with a shared store).
// ADMIN_EMAIL and ADMIN_PASSWORD are the admin section's account; without them a password is made and printed.
// `npm run dev` adds --dev: tsx restarts the server on every change (code, static/) and the open tab reloads.
// A `.env` file in the working directory, if there is one, sets what the environment does not, at each start.

import { existsSync } from 'node:fs';
import { serve } from 'pagetree/node';
import { createApp, type AppOptions } from './app.tsx';

type Shared = Pick<AppOptions, 'databasePath' | 'store' | 'broker' | 'throttle' | 'sessions'>;

// What the instances share, from the environment. The engines' clients are loaded only when they are used.
async function shared(env: NodeJS.ProcessEnv): Promise<Shared> {
  const { DATABASE_URL, DATABASE_PATH, REDIS_URL } = env;
  if (DATABASE_URL && DATABASE_PATH) throw new Error('set DATABASE_URL (Postgres) or DATABASE_PATH (SQLite), not both');
  const found: Shared = { databasePath: DATABASE_PATH };
  if (DATABASE_URL) {
    const [{ default: pg }, { PostgresBroker, PostgresSessionStore, PostgresThrottleStore }, { PostgresStore }] =
      await Promise.all([import('pg'), import('pagetree/postgres'), import('./store-postgres.ts')]);
    // One pool for the tasks, the broker's LISTEN, the sessions and the login throttle.
    const pool = new pg.Pool({ connectionString: DATABASE_URL });
    // An idle connection that breaks (the server restarted) is an 'error' of the pool, which would end the process
    // unheard; the pool replaces it, and the broker listens again by itself.
    pool.on('error', (err) => console.error(`postgres: an idle connection failed: ${err.message}`));
    // Connected before the app serves: a wrong URL or a database that is down stops the start with its error.
    Object.assign(found, {
      databasePath: undefined,
      store: await PostgresStore.connect(pool),
      broker: new PostgresBroker(pool),
      throttle: new PostgresThrottleStore(pool),
      sessions: new PostgresSessionStore(pool),
    });
  }
  if (REDIS_URL) {
    const [{ Redis }, { RedisBroker, RedisSessionStore, RedisThrottleStore }] = await Promise.all([
      import('ioredis'),
      import('pagetree/redis'),
    ]);
    const redis = new Redis(REDIS_URL);
    // ioredis reconnects by itself; said once per outage instead of at each try.
    let down = false;
    redis.on('error', (err: Error) => {
      if (!down) console.error(`redis: ${err.message}; reconnecting`);
      down = true;
    });
    redis.on('ready', () => (down = false));
    Object.assign(found, { broker: new RedisBroker(redis), throttle: new RedisThrottleStore(redis) });
    found.sessions ??= new RedisSessionStore(redis); // Postgres keeps them when there is one
  }
  return found;
}

// CommonJS under tsx, so no top-level await: the start is one async function.
async function main(): Promise<void> {
  if (existsSync('.env')) process.loadEnvFile('.env');
  const { ADMIN_EMAIL, ADMIN_PASSWORD } = process.env;
  const { mux, admin } = createApp({
    ...(await shared(process.env)),
    htmxVersion: process.env.HTMX_VERSION,
    secret: process.env.PAGETREE_SECRET,
    liveReload: process.argv.includes('--dev'),
    admin: ADMIN_EMAIL && ADMIN_PASSWORD ? { email: ADMIN_EMAIL, password: ADMIN_PASSWORD } : undefined,
  });
  if (!ADMIN_PASSWORD) {
    console.log(`admin: log in at /login as ${admin.email} with the password ${admin.password} (made for this start;`);
    console.log('       set ADMIN_EMAIL and ADMIN_PASSWORD to choose them)');
  }
  serve(mux);
}

main().catch((err: unknown) => {
  console.error('pages-example did not start:', err);
  process.exit(1);
});
