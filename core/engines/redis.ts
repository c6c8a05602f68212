// pagetree/redis: what several instances share, kept in Redis or Valkey. Through an `ioredis` or `iovalkey` client
// (optional peer dependencies: install the one you use; their APIs are the same).
//
//   const redis = new Redis(process.env.REDIS_URL);
//   const broker = new RedisBroker(redis);                live regions: pub/sub
//   session: { store: new RedisSessionStore(redis) }      sessions kept on the server
//   new LoginThrottle({ store: new RedisThrottleStore(redis) })   failed logins counted by every instance
//
// The broker. A topic is the channel "pagetree:<topic>". A message's id is INCR of "pagetree:id:<topic>", taken in
// the same script that PUBLISHes "<id>:<data>", so the ids of a topic arrive in growing order; no size limit but
// Redis's own. It publishes through the client it is given, and subscribes through a second connection of its own
// (`duplicate()`), opened with the first subscription. Both reconnect by themselves (the client's retry strategy):
// what is published while the publishing connection is down waits in the client's offline queue; what others
// published while the subscribing connection was down is lost, and once it is back (and subscribed again) every
// subscriber gets a `gap` message: an EventHub's clients refresh.

import { Subscriptions, type Broker, type BrokerMessage } from '../http/broker.ts';
import type { ThrottleCount, ThrottleStore } from '../http/throttle.ts';
import type { SessionStore } from '../page/session.ts';

/** What this module needs of an `ioredis` or `iovalkey` client. */
export interface RedisClient {
  duplicate(): RedisClient;
  eval(script: string, numKeys: number, ...args: string[]): Promise<unknown>;
  get(key: string): Promise<string | null>;
  set(key: string, value: string, mode: 'EX', seconds: number): Promise<unknown>;
  del(key: string): Promise<number>;
  subscribe(...channels: string[]): Promise<unknown>;
  unsubscribe(...channels: string[]): Promise<unknown>;
  on(event: string, listener: (...args: never[]) => void): unknown;
  quit(): Promise<unknown>;
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
  #subscriber: RedisClient | undefined;
  #lost = false;
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
    const id = await this.#client.eval(publishScript, 1, `${this.#prefix}:id:${topic}`, this.#channel(topic), data);
    return String(id);
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
    await subscriber?.quit().catch(() => {});
  }

  // A failed SUBSCRIBE while the connection is down is done again when it comes back ('ready', below).
  #watch(done: Promise<unknown> | undefined): void {
    done?.catch((err: unknown) => this.#onError(err));
  }

  #subscriberOf(): RedisClient {
    if (this.#subscriber) return this.#subscriber;
    const subscriber = (this.#subscriber = this.#client.duplicate());
    const prefix = `${this.#prefix}:`;
    subscriber.on('message', (channel: string, payload: string) => {
      const colon = payload.indexOf(':');
      if (!channel.startsWith(prefix) || colon < 1) return;
      this.#subscriptions.deliver(channel.slice(prefix.length), {
        id: payload.slice(0, colon),
        data: payload.slice(colon + 1),
      });
    });
    subscriber.on('error', (err: Error) => {
      if (!this.#lost) this.#onError(err);
    });
    subscriber.on('close', () => (this.#lost = !this.#closed));
    subscriber.on('ready', () => {
      if (!this.#lost) return;
      this.#lost = false;
      // Subscribed again (the client resubscribes too; twice is harmless), then the subscribers hear of the gap.
      const channels = [...this.#subscriptions.topics()].map((topic) => this.#channel(topic));
      const again = channels.length > 0 ? subscriber.subscribe(...channels) : Promise.resolve();
      again.then(
        () => this.#subscriptions.gap(),
        (err: unknown) => this.#onError(err),
      );
    });
    return subscriber;
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
    const json = await this.#client.get(this.#prefix + id);
    return json === null ? undefined : (JSON.parse(json) as object);
  }

  async set(id: string, data: object, ttl: number): Promise<void> {
    await this.#client.set(this.#prefix + id, JSON.stringify(data), 'EX', Math.max(1, Math.ceil(ttl)));
  }

  async delete(id: string): Promise<void> {
    await this.#client.del(this.#prefix + id);
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
    const [count, ms] = (await this.#client.eval(hitScript, 1, this.#prefix + key, String(window * 1000))) as [
      number,
      number,
    ];
    return { count, resetsIn: Math.max(1, Math.ceil(ms / 1000)) };
  }

  async undo(key: string): Promise<void> {
    await this.#client.eval(undoScript, 1, this.#prefix + key);
  }

  async delete(key: string): Promise<void> {
    await this.#client.del(this.#prefix + key);
  }
}
