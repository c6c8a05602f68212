// The two Postgres clients pagetree/postgres takes, behind one small interface: a `pg` Pool, or a `postgres`
// (postgres.js) `sql`. What the broker and the stores need of a database is three things:
//
//   db.query('SELECT data FROM t WHERE id = $1', [id])   → the rows
//   db.schema(ddl)                                        the tables, once per client, under an advisory lock
//   db.listener({ notified, back, error })                LISTEN on channels, and a word when it is back after a loss
//
// Listening differs the most. With pg, the listener holds one connection of the pool, and when it breaks takes a
// new one, retrying with a growing delay, and listens again. postgres.js keeps one listening connection of its own
// and listens again by itself after a reconnect, calling each channel's `onlisten` again: that second call is the
// word that it is back.

/** What pagetree/postgres needs of a `pg.Pool`. */
export interface PgPool {
  query(text: string, values?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
  connect(): Promise<PgPoolClient>;
}

/** What pagetree/postgres needs of a client of a `pg.Pool` (`pool.connect()`). */
export interface PgPoolClient {
  query(text: string, values?: unknown[]): Promise<unknown>;
  on(event: string, listener: (...args: never[]) => void): unknown;
  removeAllListeners(event?: string): unknown;
  release(destroy?: boolean | Error): void;
}

/** What pagetree/postgres needs of a postgres.js `sql` (the `postgres` package). */
export interface PostgresJsSql {
  unsafe(query: string, parameters?: unknown[]): PromiseLike<readonly Record<string, unknown>[]>;
  begin(fn: (tx: { unsafe(query: string): PromiseLike<unknown> }) => Promise<unknown>): PromiseLike<unknown>;
  listen(
    channel: string,
    onnotify: (payload: string) => void,
    onlisten?: () => void,
  ): PromiseLike<{ unlisten(): PromiseLike<unknown> }>;
}

/** A `pg` Pool or a postgres.js `sql`. */
export type PostgresClient = PgPool | PostgresJsSql;

/** What a listener tells its owner. */
export interface ListenerEvents {
  notified(channel: string, payload: string): void;
  /** Listening again after the connection was lost: notifications may have been missed. */
  back(): void;
  error(err: unknown): void;
}

export interface Listener {
  listen(channel: string): void;
  unlisten(channel: string): void;
  close(): void;
}

/** The database, whichever client. */
export interface Database {
  query(text: string, values: unknown[]): Promise<readonly Record<string, unknown>[]>;
  /** Runs `ddl` once per client, inside a transaction holding an advisory lock (instances start together). */
  schema(ddl: string): Promise<void>;
  listener(events: ListenerEvents): Listener;
}

/** Reconnection delays of pg's LISTEN connection: doubling from the first to the last, in ms. */
const retryDelays = { first: 100, last: 5000 };

const quoteIdent = (name: string) => `"${name.replaceAll('"', '""')}"`;
const schemaLock = "SELECT pg_advisory_xact_lock(hashtext('pagetree schema'))";

// One Database per client, so that each schema is made once per client, whatever uses it.
const databases = new WeakMap<object, Database>();

/** The Database of a `pg` Pool or a postgres.js `sql`. */
export function databaseOf(client: PostgresClient): Database {
  let db = databases.get(client);
  if (!db) databases.set(client, (db = 'connect' in client ? pgDatabase(client) : postgresJsDatabase(client)));
  return db;
}

// Each DDL once per client; a failure is forgotten, so that the next use tries again.
function onceEach(make: (ddl: string) => Promise<void>): (ddl: string) => Promise<void> {
  const made = new Map<string, Promise<void>>();
  return (ddl) => {
    let done = made.get(ddl);
    if (!done) {
      made.set(ddl, (done = make(ddl)));
      done.catch(() => made.delete(ddl));
    }
    return done;
  };
}

function pgDatabase(pool: PgPool): Database {
  return {
    query: async (text, values) => (await pool.query(text, values)).rows,
    schema: onceEach(async (ddl) => {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        await client.query(schemaLock);
        await client.query(ddl);
        await client.query('COMMIT');
        client.release();
      } catch (err) {
        await client.query('ROLLBACK').catch(() => {});
        client.release(err instanceof Error ? err : true);
        throw err;
      }
    }),
    listener: (events) => pgListener(pool, events),
  };
}

function postgresJsDatabase(sql: PostgresJsSql): Database {
  return {
    query: async (text, values) => sql.unsafe(text, values),
    schema: onceEach(async (ddl) => {
      await sql.begin(async (tx) => {
        await tx.unsafe(schemaLock);
        await tx.unsafe(ddl);
      });
    }),
    listener: (events) => {
      const listening = new Map<string, PromiseLike<{ unlisten(): PromiseLike<unknown> }>>();
      let gap: ReturnType<typeof setTimeout> | undefined;
      return {
        listen(channel) {
          let heard = false;
          const onListen = () => {
            if (!heard) return void (heard = true);
            // Listening again after a reconnect, once per channel: one word for them all.
            clearTimeout(gap);
            gap = setTimeout(events.back, 0);
          };
          const started = sql.listen(channel, (payload) => events.notified(channel, payload), onListen);
          listening.set(channel, started);
          started.then(undefined, events.error);
        },
        unlisten(channel) {
          const started = listening.get(channel);
          listening.delete(channel);
          started?.then((l) => l.unlisten()).then(undefined, events.error);
        },
        close() {
          clearTimeout(gap);
          for (const channel of [...listening.keys()]) this.unlisten(channel);
        },
      };
    },
  };
}

// pg: one connection of the pool for LISTEN while there are channels; a new one after a loss.
function pgListener(pool: PgPool, events: ListenerEvents): Listener {
  const channels = new Set<string>();
  let client: PgPoolClient | undefined;
  let connecting = false;
  let closed = false;
  let retry: ReturnType<typeof setTimeout> | undefined;

  // Lets go of the connection: back to the pool when it works (UNLISTEN * first, so that the pool's next user does
  // not hear our channels), destroyed when it failed.
  const drop = (err: unknown) => {
    const current = client;
    client = undefined;
    if (!current) return;
    current.removeAllListeners();
    current.on('error', () => {}); // a late error of a connection being let go is not an uncaught one
    if (err !== undefined) return current.release(err instanceof Error ? err : true);
    current.query('UNLISTEN *').then(
      () => current.release(),
      (e: unknown) => current.release(e instanceof Error ? e : true),
    );
  };
  const lost = (from: PgPoolClient, err: unknown) => {
    if (client !== from) return;
    events.error(err);
    drop(err);
    connect(true);
  };
  // Takes a connection, listens to every channel, and after a loss says so.
  const connect = (afterLoss: boolean, attempt = 0) => {
    if (connecting || client || closed || channels.size === 0) return;
    connecting = true;
    // Cannot reject: every step is inside the try, and its catch only reports and schedules a retry.
    void (async () => {
      let taken: PgPoolClient | undefined;
      try {
        taken = await pool.connect();
        const connection = taken;
        connection.on('notification', (n: { channel: string; payload?: string }) =>
          events.notified(n.channel, n.payload ?? ''),
        );
        connection.on('error', (err: Error) => lost(connection, err));
        connection.on('end', () => lost(connection, new Error('the connection ended')));
        for (const channel of channels) await connection.query(`LISTEN ${quoteIdent(channel)}`);
        connecting = false;
        client = connection;
        if (closed || channels.size === 0) return drop(undefined);
        if (afterLoss) events.back();
      } catch (err) {
        connecting = false;
        taken?.removeAllListeners();
        taken?.release(err instanceof Error ? err : true);
        if (attempt === 0) events.error(err);
        const delay = Math.min(retryDelays.first * 2 ** attempt, retryDelays.last);
        // Channels that waited for this connection may have missed notifications too: they hear of it.
        retry = setTimeout(() => connect(true, attempt + 1), delay);
      }
    })();
  };
  return {
    listen(channel) {
      channels.add(channel);
      const current = client;
      if (current) current.query(`LISTEN ${quoteIdent(channel)}`).catch((err: unknown) => lost(current, err));
      else connect(false);
    },
    unlisten(channel) {
      channels.delete(channel);
      const current = client;
      if (channels.size === 0)
        drop(undefined); // no channel: the connection goes back to the pool
      else current?.query(`UNLISTEN ${quoteIdent(channel)}`).catch((err: unknown) => lost(current, err));
    },
    close() {
      closed = true;
      clearTimeout(retry);
      drop(undefined);
    },
  };
}
