// pagetree/redis: what several instances share, kept in Redis or Valkey. Through the client you already use (an
// optional peer dependency: install one): `ioredis`, `iovalkey` (a fork with the same API) or `redis` (node-redis,
// connected first: `await createClient({ url }).connect()`).
//
//   const redis = new Redis(process.env.REDIS_URL);
//   const broker = new RedisBroker(redis);                live regions: pub/sub
//   session: { store: new RedisSessionStore(redis) }      sessions kept on the server
//   new LoginThrottle({ store: new RedisThrottleStore(redis) })   failed logins counted by every instance
//
// The broker. A topic is the channel "pagetree:<topic>". A message's id is INCR of "pagetree:id:<topic>", taken in
// the same script that PUBLISHes "<id>:<data>", so the ids of a topic arrive in growing order; no size limit but
// Redis's own. Topics and data are any string, NUL included, carried as UTF-8 (broker.ts's rule for all brokers). It publishes through the client it is given, and subscribes through a second connection of its own
// (`duplicate()`), opened with the first subscription. Both reconnect by themselves (the client's retry strategy):
// what is published while the publishing connection is down waits in the client's offline queue; what others
// published while the subscribing connection was down is lost, and once it is back (and subscribed again) every
// subscriber gets a `gap` message: an EventHub's clients refresh.

import { Subscriptions, type Broker, type BrokerMessage } from '../live/broker.ts';
import type { ThrottleCount, ThrottleStore } from '../auth/throttle.ts';
import type { SessionStore } from '../auth/session.ts';

/** What this module needs of an `ioredis` or `iovalkey` client. */
export interface IoRedisClient {
  call(command: string, ...args: string[]): Promise<unknown>;
  duplicate(): IoRedisClient;
  subscribe(...channels: string[]): Promise<unknown>;
  unsubscribe(...channels: string[]): Promise<unknown>;
  on(event: string, listener: (...args: never[]) => void): unknown;
  quit(): Promise<unknown>;
}

/** What this module needs of a node-redis client (the `redis` package), connected. */
export interface NodeRedisClient {
  sendCommand(args: string[]): Promise<unknown>;
  duplicate(): NodeRedisClient;
  connect(): Promise<unknown>;
  subscribe(channel: string, listener: (message: string, channel: string) => void): Promise<unknown>;
  unsubscribe(channel: string): Promise<unknown>;
  // any[]: node-redis types its listeners' arguments so, and a narrower type would not accept its client.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  on(event: string, listener: (...args: any[]) => void): unknown;
  close(): Promise<unknown>;
}

/** A client of `ioredis`, `iovalkey` or `redis`. */
export type RedisClient = IoRedisClient | NodeRedisClient;

// One command, whichever client: ioredis and iovalkey take call(name, ...args), node-redis sendCommand([name, ...]).
function command(client: RedisClient, args: string[]): Promise<unknown> {
  return 'call' in client ? client.call(args[0]!, ...args.slice(1)) : client.sendCommand(args);
}

/** The subscribing connection, whichever client: messages in, and a call once it is back after a loss. */
interface Subscriber {
  subscribe(channel: string): Promise<unknown>;
  unsubscribe(channel: string): Promise<unknown>;
  close(): Promise<unknown>;
}

interface SubscriberEvents {
  message(channel: string, payload: string): void;
  /** Connected and subscribed again after a loss. */
  back(): void;
  error(err: unknown): void;
  /** The channels to subscribe to again. */
  channels(): string[];
}

function subscriberOf(client: RedisClient, on: SubscriberEvents): Subscriber {
  let lost = false;
  let closed = false;
  const failed = (err: Error) => {
    if (!lost) on.error(err);
  };
  if ('call' in client) {
    const sub = client.duplicate();
    sub.on('message', (channel: string, payload: string) => on.message(channel, payload));
    sub.on('error', failed);
    sub.on('close', () => (lost = !closed));
    sub.on('ready', () => {
      if (!lost) return;
      lost = false;
      // Subscribed again (ioredis does it too; twice is harmless), then the subscribers hear of the gap.
      const channels = on.channels();
      (channels.length > 0 ? sub.subscribe(...channels) : Promise.resolve()).then(on.back, on.error);
    });
    return {
      subscribe: (channel) => sub.subscribe(channel),
      unsubscribe: (channel) => sub.unsubscribe(channel),
      close: () => ((closed = true), sub.quit()),
    };
  }
  // node-redis: the duplicate connects first, and subscribes again by itself before it is ready after a loss.
  const sub = client.duplicate();
  sub.on('error', failed);
  sub.on('reconnecting', () => (lost = !closed));
  sub.on('ready', () => {
    if (!lost) return;
    lost = false;
    on.back();
  });
  const connected = sub.connect();
  const listener = (payload: string, channel: string) => on.message(channel, payload);
  return {
    subscribe: (channel) => connected.then(() => sub.subscribe(channel, listener)),
    unsubscribe: (channel) => connected.then(() => sub.unsubscribe(channel)),
    close: () => ((closed = true), connected.then(() => sub.close())),
  };
}

// INCR and PUBLISH in one script: nothing runs between them, so ids reach subscribers in order.
const publishScript = `local id = redis.call('INCR', KEYS[1])
redis.call('PUBLISH', ARGV[1], id .. ':' .. ARGV[2])
return id`;

/**
 * A `Broker` over Redis (or Valkey) pub/sub, for several instances on one server (see the module comment).
 * @example const broker = new RedisBroker(new Redis(process.env.REDIS_URL));
 */
export class RedisBroker implements Broker {
  readonly #client: RedisClient;
  readonly #prefix: string;
  readonly #subscriptions: Subscriptions;
  /** The subscribing connection, from the first subscription on. */
  #subscriber: Subscriber | undefined;
  #closed = false;
  readonly #onError: (err: unknown) => void;

  /**
   * @param options.prefix of channels and keys (default "pagetree")
   * @param options.onError hears a lost subscribing connection (default: console.error); it reconnects itself
   */
  constructor(client: RedisClient, options: { prefix?: string; onError?: (err: unknown) => void } = {}) {
    this.#client = client;
    this.#prefix = options.prefix ?? 'pagetree';
    this.#onError = options.onError ?? ((err) => console.error('pagetree: RedisBroker lost its connection:', err));
    this.#subscriptions = new Subscriptions({
      onFirst: (topic) => this.#watch(this.#subscriberOf().subscribe(this.#channel(topic))),
      onLast: (topic) => this.#watch(this.#subscriber?.unsubscribe(this.#channel(topic))),
    });
  }

  #channel(topic: string): string {
    return `${this.#prefix}:${topic}`;
  }

  async publish(topic: string, data = ''): Promise<string> {
    if (this.#closed) throw new Error(`RedisBroker: publish(${JSON.stringify(topic)}) after close()`);
    const key = `${this.#prefix}:id:${topic}`;
    return String(await command(this.#client, ['EVAL', publishScript, '1', key, this.#channel(topic), data]));
  }

  subscribe(topic: string, signal: AbortSignal): AsyncIterable<BrokerMessage> {
    return this.#subscriptions.open(topic, signal);
  }

  /** How many subscriptions `topic` has (all topics without one). */
  subscribers(topic?: string): number {
    return this.#subscriptions.count(topic);
  }

  /** Ends the subscriptions and closes the subscribing connection; the client it was given stays open. */
  async close(): Promise<void> {
    this.#closed = true;
    this.#subscriptions.end();
    const subscriber = this.#subscriber;
    this.#subscriber = undefined;
    await subscriber?.close().catch(() => {});
  }

  // A failed SUBSCRIBE while the connection is down is done again when it comes back ('ready', below).
  #watch(done: Promise<unknown> | undefined): void {
    done?.catch((err: unknown) => this.#onError(err));
  }

  #subscriberOf(): Subscriber {
    const prefix = `${this.#prefix}:`;
    return (this.#subscriber ??= subscriberOf(this.#client, {
      message: (channel, payload) => {
        const colon = payload.indexOf(':');
        if (!channel.startsWith(prefix) || colon < 1) return;
        const message = { id: payload.slice(0, colon), data: payload.slice(colon + 1) };
        this.#subscriptions.deliver(channel.slice(prefix.length), message);
      },
      back: () => this.#subscriptions.gap(),
      error: this.#onError,
      channels: () => [...this.#subscriptions.topics()].map((topic) => this.#channel(topic)),
    }));
  }
}

/**
 * A `SessionStore` in Redis: each session a key "pagetree:session:<id>" that expires with the session.
 * @example session: { store: new RedisSessionStore(redis) }
 */
export class RedisSessionStore implements SessionStore {
  readonly #client: RedisClient;
  readonly #prefix: string;

  constructor(client: RedisClient, options: { prefix?: string } = {}) {
    this.#client = client;
    this.#prefix = `${options.prefix ?? 'pagetree'}:session:`;
  }

  async get(id: string): Promise<object | undefined> {
    const json = await command(this.#client, ['GET', this.#prefix + id]);
    return typeof json === 'string' ? (JSON.parse(json) as object) : undefined;
  }

  async set(id: string, data: object, ttl: number): Promise<void> {
    const seconds = String(Math.max(1, Math.ceil(ttl)));
    await command(this.#client, ['SET', this.#prefix + id, JSON.stringify(data), 'EX', seconds]);
  }

  async delete(id: string): Promise<void> {
    await command(this.#client, ['DEL', this.#prefix + id]);
  }
}

// INCR, and the window's expiry set by the try that opened it; the answer is the count and the ms left.
const hitScript = `local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return {count, redis.call('PTTL', KEYS[1])}`;

const undoScript = `if (tonumber(redis.call('GET', KEYS[1]) or '0')) > 0 then redis.call('DECR', KEYS[1]) end`;

/**
 * A `ThrottleStore` in Redis: each count a key "pagetree:throttle:<key>" that expires with its window.
 * @example new LoginThrottle({ store: new RedisThrottleStore(redis) })
 */
export class RedisThrottleStore implements ThrottleStore {
  readonly #client: RedisClient;
  readonly #prefix: string;

  constructor(client: RedisClient, options: { prefix?: string } = {}) {
    this.#client = client;
    this.#prefix = `${options.prefix ?? 'pagetree'}:throttle:`;
  }

  async hit(key: string, window: number): Promise<ThrottleCount> {
    const args = ['EVAL', hitScript, '1', this.#prefix + key, String(window * 1000)];
    const [count, ms] = (await command(this.#client, args)) as [number, number];
    return { count, resetsIn: Math.max(1, Math.ceil(ms / 1000)) };
  }

  async undo(key: string): Promise<void> {
    await command(this.#client, ['EVAL', undoScript, '1', this.#prefix + key]);
  }

  async delete(key: string): Promise<void> {
    await command(this.#client, ['DEL', this.#prefix + key]);
  }
}
