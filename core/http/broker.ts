// A broker under live regions (issue 27): a change is published once on a topic, and every subscriber of that
// topic hears it, in every instance that shares the broker. Each message has an id that grows with each message
// of its topic: the id of the event a client last saw, which it sends back as Last-Event-ID when it reconnects.
//
//   await broker.publish('tasks', 'added 7')            → "42" (the message's id)
//   for await (const m of broker.subscribe('tasks', signal)) … m.id, m.data   (ends when `signal` aborts)
//
// MemoryBroker is the default: one process. Adapters for Postgres LISTEN/NOTIFY and Redis pub/sub implement the
// same interface behind their own exports (the next step of issue 27).

/** One published message. */
export interface BrokerMessage {
  /** Grows with each message of its topic (compare as numbers): the event id clients send back. */
  readonly id: string;
  readonly data: string;
}

/** Publish on a topic; subscribe to one as an async iterator. */
export interface Broker {
  /** Publishes `data` (default '') on `topic`; resolves to the message's id once it is sent. */
  publish(topic: string, data?: string): Promise<string>;
  /** The messages of `topic` published from now on, in order, until `signal` aborts or the broker closes. */
  subscribe(topic: string, signal: AbortSignal): AsyncIterable<BrokerMessage>;
  /** Ends every subscription and lets go of the connection. */
  close(): Promise<void>;
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
 * A broker in this process's memory: the default, for one instance (and for tests). Several instances share a
 * broker of Postgres or Redis instead.
 * @example const broker = new MemoryBroker(); new EventHub({ broker, topic: 'tasks', render })
 */
export class MemoryBroker implements Broker {
  readonly #inboxes = new Map<string, Set<Inbox>>();
  readonly #ids = new Map<string, number>();
  #closed = false;

  async publish(topic: string, data = ''): Promise<string> {
    if (this.#closed) throw new Error(`MemoryBroker: publish(${JSON.stringify(topic)}) after close()`);
    const id = String((this.#ids.get(topic) ?? 0) + 1);
    this.#ids.set(topic, Number(id));
    for (const inbox of this.#inboxes.get(topic) ?? []) inbox.push({ id, data });
    return id;
  }

  subscribe(topic: string, signal: AbortSignal): AsyncIterable<BrokerMessage> {
    const inbox = new Inbox();
    const inboxes = this.#inboxes.get(topic) ?? new Set<Inbox>();
    this.#inboxes.set(topic, inboxes);
    const leave = () => {
      inbox.end();
      inboxes.delete(inbox);
      if (inboxes.size === 0 && this.#inboxes.get(topic) === inboxes) this.#inboxes.delete(topic);
    };
    if (this.#closed || signal.aborted) inbox.end();
    else {
      inboxes.add(inbox);
      signal.addEventListener('abort', leave, { once: true });
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

  /** How many subscriptions `topic` has (all topics without one). */
  subscribers(topic?: string): number {
    if (topic !== undefined) return this.#inboxes.get(topic)?.size ?? 0;
    let n = 0;
    for (const inboxes of this.#inboxes.values()) n += inboxes.size;
    return n;
  }

  async close(): Promise<void> {
    this.#closed = true;
    for (const inboxes of this.#inboxes.values()) for (const inbox of inboxes) inbox.end();
    this.#inboxes.clear();
  }
}
