// A broker under live regions (issue 27): a change is published once on a topic, and every subscriber of that
// topic hears it, in every instance that shares the broker. Each message has an id that grows with each message
// of its topic: the id of the event a client last saw, which it sends back as Last-Event-ID when it reconnects.
//
//   await broker.publish('tasks', 'added 7')            → "42" (the message's id)
//   for await (const m of broker.subscribe('tasks', signal)) … m.id, m.data   (ends when `signal` aborts)
//
// MemoryBroker is the default: one process. PostgresBroker (pagetree/postgres, LISTEN/NOTIFY) and RedisBroker
// (pagetree/redis, pub/sub) implement the same interface for several instances; they share Subscriptions below.
//
// A broker that lost its server and got it back cannot know what was published meanwhile: it tells each
// subscriber with one `gap` message, and an EventHub answers it with a `refresh` event to its clients.
//
// One rule for the text, whatever carries it: a topic and data are any string, NUL included, carried as UTF-8 text
// is. A lone surrogate (half of a UTF-16 pair, which UTF-8 cannot hold) becomes U+FFFD, as Postgres and Redis turn
// it, so MemoryBroker does too: an app tested on it sees what it will see on the others.

/** One published message. */
export interface BrokerMessage {
  /** Grows with each message of its topic (compare as numbers): the event id clients send back. */
  readonly id: string;
  readonly data: string;
  /**
   * True on the message a broker sends after it reconnected to its server: messages may have been lost before it
   * (its `id` and `data` are empty). Subscribers refresh what they show.
   */
  readonly gap?: boolean;
}

/** Publish on a topic; subscribe to one as an async iterator. Topics and data: any string (the module comment). */
export interface Broker {
  /** Publishes `data` (default '') on `topic`; resolves to the message's id once it is sent. */
  publish(topic: string, data?: string): Promise<string>;
  /** The messages of `topic` published from now on, in order, until `signal` aborts or the broker closes. */
  subscribe(topic: string, signal: AbortSignal): AsyncIterable<BrokerMessage>;
  /** Ends every subscription and lets go of the connection. */
  close(): Promise<void>;
}

const gapMessage: BrokerMessage = { id: '', data: '', gap: true };

/**
 * The text a broker carries: `s` as UTF-8 holds it, each lone surrogate U+FFFD (the module comment).
 * @example brokerText('a\ud800') // → "a\ufffd"
 */
export function brokerText(s: string): string {
  // toWellFormed (ES2024; Node 20, Bun, Deno, workerd) is newer than the TypeScript lib this compiles with.
  return (s as string & { toWellFormed(): string }).toWellFormed();
}

/** A subscriber's queue: the messages it has not read yet, and the read that waits for the next one. */
class Inbox {
  readonly messages: BrokerMessage[] = [];
  waiting: ((result: IteratorResult<BrokerMessage>) => void) | undefined;
  done = false;

  push(message: BrokerMessage): void {
    if (this.done) return;
    const wake = this.waiting;
    this.waiting = undefined;
    if (wake) wake({ value: message, done: false });
    else this.messages.push(message);
  }

  end(): void {
    this.done = true;
    this.messages.length = 0;
    const wake = this.waiting;
    this.waiting = undefined;
    wake?.({ value: undefined, done: true });
  }

  next(): Promise<IteratorResult<BrokerMessage>> {
    const message = this.messages.shift();
    if (message) return Promise.resolve({ value: message, done: false });
    if (this.done) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve) => (this.waiting = resolve));
  }
}

/**
 * The subscribers of a broker, by topic: what every broker keeps the same way, whatever carries its messages.
 * `onFirst` runs when a topic gets its first subscriber (start listening to it), `onLast` when its last one leaves.
 * @example const subs = new Subscriptions({ onFirst: (t) => listen(t), onLast: (t) => unlisten(t) }); subs.deliver('tasks', m)
 */
export class Subscriptions {
  readonly #topics = new Map<string, Set<Inbox>>();
  readonly #onFirst: ((topic: string) => void) | undefined;
  readonly #onLast: ((topic: string) => void) | undefined;
  #ended = false;

  constructor(hooks: { onFirst?: (topic: string) => void; onLast?: (topic: string) => void } = {}) {
    this.#onFirst = hooks.onFirst;
    this.#onLast = hooks.onLast;
  }

  /** A new subscription to `topic`, until `signal` aborts, its iterator returns, or end(). */
  open(topic: string, signal: AbortSignal): AsyncIterable<BrokerMessage> {
    topic = brokerText(topic); // the topic a message comes back with from a server
    const inbox = new Inbox();
    let inboxes: Set<Inbox> | undefined;
    const leave = () => {
      inbox.end();
      if (!inboxes?.delete(inbox) || inboxes.size > 0 || this.#topics.get(topic) !== inboxes) return;
      this.#topics.delete(topic);
      this.#onLast?.(topic);
    };
    if (this.#ended || signal.aborted) inbox.end();
    else {
      inboxes = this.#topics.get(topic);
      const first = inboxes === undefined;
      if (!inboxes) this.#topics.set(topic, (inboxes = new Set()));
      inboxes.add(inbox);
      signal.addEventListener('abort', leave, { once: true });
      if (first) this.#onFirst?.(topic);
    }
    return {
      [Symbol.asyncIterator]: () => ({
        next: () => inbox.next(),
        return: () => {
          signal.removeEventListener('abort', leave);
          leave();
          return Promise.resolve({ value: undefined, done: true });
        },
      }),
    };
  }

  /** Hands `message` to every subscriber of `topic`. */
  deliver(topic: string, message: BrokerMessage): void {
    for (const inbox of this.#topics.get(brokerText(topic)) ?? []) inbox.push(message);
  }

  /** Tells every subscriber that messages may have been lost (the broker reconnected). */
  gap(): void {
    for (const inboxes of this.#topics.values()) for (const inbox of inboxes) inbox.push(gapMessage);
  }

  /** The topics that have subscribers. */
  topics(): IterableIterator<string> {
    return this.#topics.keys();
  }

  /** How many subscriptions `topic` has (all topics without one). */
  count(topic?: string): number {
    if (topic !== undefined) return this.#topics.get(topic)?.size ?? 0;
    let n = 0;
    for (const inboxes of this.#topics.values()) n += inboxes.size;
    return n;
  }

  /** Ends every subscription; later ones end at once. */
  end(): void {
    this.#ended = true;
    for (const inboxes of this.#topics.values()) for (const inbox of inboxes) inbox.end();
    this.#topics.clear();
  }
}

/**
 * A broker in this process's memory: the default, for one instance (and for tests). Several instances share a
 * broker of Postgres or Redis instead.
 * @example const broker = new MemoryBroker(); new EventHub({ broker, topic: 'tasks', render })
 */
export class MemoryBroker implements Broker {
  readonly #subscriptions = new Subscriptions();
  readonly #ids = new Map<string, number>();
  #closed = false;

  async publish(topic: string, data = ''): Promise<string> {
    if (this.#closed) throw new Error(`MemoryBroker: publish(${JSON.stringify(topic)}) after close()`);
    topic = brokerText(topic);
    const id = (this.#ids.get(topic) ?? 0) + 1;
    this.#ids.set(topic, id);
    this.#subscriptions.deliver(topic, { id: String(id), data: brokerText(data) });
    return String(id);
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
  }
}
