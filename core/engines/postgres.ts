// pagetree/postgres: what several instances share, kept in a Postgres database they already have. Through the
// client you already use (an optional peer dependency: install one): a `pg` Pool, or a postgres.js `sql` (the
// `postgres` package); postgres-driver.ts tells them apart.
//
//   const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL });     or: const pool = postgres(url)
//   const broker = new PostgresBroker(pool);         live regions: LISTEN/NOTIFY
//   session: { store: new PostgresSessionStore(pool) }   sessions kept on the server
//   new LoginThrottle({ store: new PostgresThrottleStore(pool) })   failed logins counted by every instance
//
// The tables (and the broker's sequence) are made on first use, with `IF NOT EXISTS`, under an advisory lock so
// that instances starting together do not collide: pagetree_broker_messages, pagetree_sessions, pagetree_throttle.
//
// The broker. A topic is a NOTIFY channel ("pagetree:tasks"; a topic too long or odd for a channel name gets a
// hash). A message's id comes from one sequence, taken under a per-topic advisory lock held until the commit that
// sends the notification, so the ids of a topic arrive in growing order. The payload:
//
//   "i<id>:<data>"   the message
//   "t<id>"          a message too big for NOTIFY (8,000 bytes), stored in pagetree_broker_messages: each listener
//                    reads it back (rows older than ten minutes are deleted now and then)
//   "j<id>:<json>"   data holding NUL, which Postgres text cannot: as a JSON string (NUL written \u0000)
//   "u<id>"          the same, stored
//
// Data without NUL goes as before, byte for byte, so instances of an older version read what this one sends. A
// topic with NUL has a hashed channel; its advisory lock takes the topic's JSON form.
// One connection is kept for LISTEN while there are subscribers (pg: one of the pool's; postgres.js: its own). When
// it breaks (the server restarted), it is made again and listens again, and each subscriber gets a `gap` message:
// what was published meanwhile is not delivered, and an EventHub's clients refresh.

import { createHash } from 'node:crypto';
import { brokerText, Subscriptions, type Broker, type BrokerMessage } from '../live/broker.ts';
import type { ThrottleCount, ThrottleStore } from '../auth/throttle.ts';
import type { SessionStore } from '../auth/session.ts';
import { databaseOf, type Database, type Listener, type PostgresClient } from './postgres-driver.ts';

export type { PgPool, PgPoolClient, PostgresClient, PostgresJsSql } from './postgres-driver.ts';

/** NOTIFY's payload must be shorter than 8,000 bytes. */
const notifyLimit = 7999;

// Table names are the defaults, or a name the user chose: checked, as they are written into the SQL.
function tableName(api: string, name: string): string {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(name)) {
    throw new TypeError(`${api}: the table name ${JSON.stringify(name)} must be lowercase letters, digits and _`);
  }
  return name;
}

// A topic as the key of its advisory lock: Postgres text cannot hold NUL, so a topic with one gives its JSON form.
function lockKey(topic: string): string {
  return topic.includes('\0') ? JSON.stringify(topic) : topic;
}

/** The NOTIFY channel of a topic: readable when it can be, a hash when the topic is long or has odd characters. */
function channelOf(topic: string): string {
  const channel = `pagetree:${topic}`;
  if (/^[\w.:/-]{1,53}$/.test(topic)) return channel;
  return `pagetree#${createHash('sha256').update(topic).digest('hex').slice(0, 40)}`;
}

/**
 * A `Broker` over Postgres LISTEN/NOTIFY, for several instances on one database (see the module comment).
 * @example const broker = new PostgresBroker(new pg.Pool({ connectionString: process.env.DATABASE_URL }));
 */
export class PostgresBroker implements Broker {
  readonly #db: Database;
  readonly #table: string;
  readonly #subscriptions: Subscriptions;
  /** The topic of each channel listened to. */
  readonly #topics = new Map<string, string>();
  /** The LISTEN connection's owner, from the first subscription on. */
  #listener: Listener | undefined;
  /** Notifications are handed on in order, also when one of them must first be read from the table. */
  #delivering: Promise<void> = Promise.resolve();
  #published = 0;
  #closed = false;
  readonly #onError: (err: unknown) => void;

  /**
   * @param options.table where messages too big for NOTIFY go (default pagetree_broker_messages)
   * @param options.onError hears what fails out of a caller's sight (default: console.error): a lost LISTEN
   *   connection (the broker reconnects itself), a large message that could not be read back (its subscribers get a
   *   gap), the deletion of old stored messages
   */
  constructor(client: PostgresClient, options: { table?: string; onError?: (err: unknown) => void } = {}) {
    this.#db = databaseOf(client);
    this.#table = tableName('PostgresBroker', options.table ?? 'pagetree_broker_messages');
    this.#onError = options.onError ?? ((err) => console.error('pagetree: PostgresBroker:', err));
    this.#subscriptions = new Subscriptions({
      onFirst: (topic) => {
        const channel = channelOf(topic);
        this.#topics.set(channel, topic);
        this.#listenerOf().listen(channel);
      },
      onLast: (topic) => {
        const channel = channelOf(topic);
        this.#topics.delete(channel);
        this.#listener?.unlisten(channel);
      },
    });
  }

  #schema(): Promise<void> {
    return this.#db.schema(
      `CREATE SEQUENCE IF NOT EXISTS ${this.#table}_ids;
       CREATE TABLE IF NOT EXISTS ${this.#table} (
         id bigint PRIMARY KEY, data text NOT NULL, at timestamptz NOT NULL DEFAULT now())`,
    );
  }

  async publish(topic: string, data = ''): Promise<string> {
    if (this.#closed) throw new Error(`PostgresBroker: publish(${JSON.stringify(topic)}) after close()`);
    await this.#schema();
    const channel = channelOf(topic);
    data = brokerText(data);
    const json = data.includes('\0'); // the JSON form, under its own letters
    const text = json ? JSON.stringify(data) : data;
    // The advisory lock orders the ids of a topic: it is held until the commit, which is when NOTIFY sends.
    const locked = `(SELECT pg_advisory_xact_lock(hashtext($1))) AS locked`;
    const inline = new TextEncoder().encode(text).length + 21 <= notifyLimit;
    const rows = inline
      ? await this.#db.query(
          `SELECT id::text, pg_notify($2, $4::text || id || ':' || $3::text)
           FROM (SELECT nextval('${this.#table}_ids') AS id FROM ${locked}) AS next`,
          [lockKey(topic), channel, text, json ? 'j' : 'i'],
        )
      : await this.#db.query(
          `WITH stored AS (
             INSERT INTO ${this.#table} (id, data) SELECT nextval('${this.#table}_ids'), $3::text FROM ${locked}
             RETURNING id)
           SELECT id::text, pg_notify($2, $4::text || id) FROM stored`,
          [lockKey(topic), channel, text, json ? 'u' : 't'],
        );
    if (!inline && ++this.#published % 50 === 0) {
      this.#db.query(`DELETE FROM ${this.#table} WHERE at < now() - interval '10 minutes'`, []).catch(this.#onError);
    }
    return rows[0]!.id as string;
  }

  subscribe(topic: string, signal: AbortSignal): AsyncIterable<BrokerMessage> {
    return this.#subscriptions.open(topic, signal);
  }

  /** How many subscriptions `topic` has (all topics without one). */
  subscribers(topic?: string): number {
    return this.#subscriptions.count(topic);
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#subscriptions.end();
    this.#listener?.close();
  }

  #listenerOf(): Listener {
    return (this.#listener ??= this.#db.listener({
      notified: (channel, payload) => this.#notified(channel, payload),
      back: () => this.#subscriptions.gap(),
      error: this.#onError,
    }));
  }

  #notified(channel: string, payload: string): void {
    const topic = this.#topics.get(channel);
    if (topic === undefined) return;
    const kind = payload[0];
    const colon = payload.indexOf(':');
    if ((kind === 'i' || kind === 'j') && colon > 1) {
      const id = payload.slice(1, colon);
      let data = payload.slice(colon + 1);
      if (kind === 'j') {
        try {
          data = JSON.parse(data) as string;
        } catch (err) {
          return this.#onError(err); // not what a PostgresBroker sends
        }
      }
      this.#inTurn(() => this.#subscriptions.deliver(topic, { id, data }));
    } else if (kind === 't' || kind === 'u') {
      const id = payload.slice(1);
      // Read at once, so that reads overlap, and handed on in turn. Every promise is observed where it is created:
      // the read settles into its message, or null when it failed (logged now) or was pruned, and never rejects, so
      // one that fails while an earlier one is pending is no rejection nobody handles (issue 40).
      const read: Promise<BrokerMessage | null> = this.#db
        .query(`SELECT data FROM ${this.#table} WHERE id = $1`, [id])
        .then((rows) => {
          if (!rows[0]) return null;
          const stored = rows[0].data as string;
          return { id, data: kind === 'u' ? (JSON.parse(stored) as string) : stored };
        })
        .catch((err: unknown) => (this.#onError(err), null));
      // Pruned before it was read, or lost: the subscribers refresh.
      this.#inTurn(() => read.then((m) => (m ? this.#subscriptions.deliver(topic, m) : this.#subscriptions.gap())));
    }
  }

  // Runs `step` after the steps before it. No step rejects (delivering to an inbox does not throw), so the chain
  // never holds a rejection nobody handles.
  #inTurn(step: () => void | Promise<void>): void {
    this.#delivering = this.#delivering.then(step);
  }
}

/**
 * A `SessionStore` in a Postgres table (default pagetree_sessions): sessions that every instance reads, and that
 * `destroy()` ends everywhere. Expired rows are deleted now and then.
 * @example session: { store: new PostgresSessionStore(pool) }
 */
export class PostgresSessionStore implements SessionStore {
  readonly #db: Database;
  readonly #table: string;
  #writes = 0;

  constructor(client: PostgresClient, options: { table?: string } = {}) {
    this.#db = databaseOf(client);
    this.#table = tableName('PostgresSessionStore', options.table ?? 'pagetree_sessions');
  }

  #schema(): Promise<void> {
    return this.#db.schema(
      `CREATE TABLE IF NOT EXISTS ${this.#table} (
         id text PRIMARY KEY, data jsonb NOT NULL, expires timestamptz NOT NULL)`,
    );
  }

  async get(id: string): Promise<object | undefined> {
    await this.#schema();
    const rows = await this.#db.query(`SELECT data FROM ${this.#table} WHERE id = $1 AND expires > now()`, [id]);
    return rows[0]?.data as object | undefined;
  }

  async set(id: string, data: object, ttl: number): Promise<void> {
    await this.#schema();
    await this.#db.query(
      `INSERT INTO ${this.#table} (id, data, expires) VALUES ($1, $2::text::jsonb, now() + $3 * interval '1 second')
       ON CONFLICT (id) DO UPDATE SET data = EXCLUDED.data, expires = EXCLUDED.expires`,
      [id, JSON.stringify(data), ttl],
    );
    if (++this.#writes % 100 === 0) await this.#db.query(`DELETE FROM ${this.#table} WHERE expires <= now()`, []);
  }

  async delete(id: string): Promise<void> {
    await this.#schema();
    await this.#db.query(`DELETE FROM ${this.#table} WHERE id = $1`, [id]);
  }
}

/**
 * A `ThrottleStore` in a Postgres table (default pagetree_throttle): failed logins counted by every instance.
 * @example new LoginThrottle({ store: new PostgresThrottleStore(pool) })
 */
export class PostgresThrottleStore implements ThrottleStore {
  readonly #db: Database;
  readonly #table: string;
  #writes = 0;

  constructor(client: PostgresClient, options: { table?: string } = {}) {
    this.#db = databaseOf(client);
    this.#table = tableName('PostgresThrottleStore', options.table ?? 'pagetree_throttle');
  }

  #schema(): Promise<void> {
    return this.#db.schema(
      `CREATE TABLE IF NOT EXISTS ${this.#table} (key text PRIMARY KEY, count int NOT NULL, resets timestamptz NOT NULL)`,
    );
  }

  async hit(key: string, window: number): Promise<ThrottleCount> {
    await this.#schema();
    // A window that is over starts again at 1.
    const rows = await this.#db.query(
      `INSERT INTO ${this.#table} AS t (key, count, resets) VALUES ($1, 1, now() + $2 * interval '1 second')
       ON CONFLICT (key) DO UPDATE SET
         count = CASE WHEN t.resets <= now() THEN 1 ELSE t.count + 1 END,
         resets = CASE WHEN t.resets <= now() THEN EXCLUDED.resets ELSE t.resets END
       RETURNING count, ceil(extract(epoch FROM resets - now()))::int AS left`,
      [key, window],
    );
    if (++this.#writes % 100 === 0) await this.#db.query(`DELETE FROM ${this.#table} WHERE resets <= now()`, []);
    return { count: rows[0]!.count as number, resetsIn: Math.max(1, rows[0]!.left as number) };
  }

  async undo(key: string): Promise<void> {
    await this.#schema();
    await this.#db.query(`UPDATE ${this.#table} SET count = count - 1 WHERE key = $1 AND count > 0`, [key]);
  }

  async delete(key: string): Promise<void> {
    await this.#schema();
    await this.#db.query(`DELETE FROM ${this.#table} WHERE key = $1`, [key]);
  }
}
