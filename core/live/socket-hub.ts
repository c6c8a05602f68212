// A hub of sockets: one change rendered once, encoded once, and the same bytes sent to every socket that follows it,
// in this instance and, through a broker, in every other (EventHub's fan-out, for WebSockets).
//
//   const comments = new SocketHub({ broker, topic: 'comments', render: (m) => <CommentList … /> })
//   open(socket)        { socket.subscribe(comments) }            each socket follows the hub
//   message(socket, d)  { …; await broker.publish('comments') }    instance A publishes
//                       → every instance's hub renders the message once → every one of its sockets gets the bytes
//
// Without a broker, `hub.send(() => html)` reaches this instance's sockets only. A hub follows its topic while it
// has sockets, and stops when the last one leaves; a broker's `gap` (it reconnected: messages may be lost) renders
// the `refresh` given, else closes the sockets with 1012 (service restart): htmx reconnects and open() draws afresh.

import type { Broker, BrokerMessage } from './broker.ts';
import { consoleLogger, type Logger } from '../kernel/logger.ts';
import { sendBytes, type Socket } from './socket.ts';

/** What a `SocketHub` follows: a broker's topic, and how a message of it is drawn. */
export interface SocketFeed {
  broker: Broker;
  topic: string;
  /** Renders a message's HTML, once per message whatever the number of sockets. */
  render: (message: BrokerMessage) => string | Promise<string>;
  /** Where a render or the subscription that fails is reported (default: the console). */
  logger?: Logger;
}

const encoder = new TextEncoder();

/**
 * The sockets that show the same thing: `send` renders once and writes the same bytes to each; with a broker, a
 * message published on its topic by any instance reaches the sockets of every instance.
 * @example const hub = new SocketHub({ broker, topic: 'comments', render: () => <CommentList comments={store.all()} /> })
 */
export class SocketHub {
  readonly #sockets = new Set<Socket>();
  readonly #feed: SocketFeed | undefined;
  #following: AbortController | undefined;

  constructor(feed?: SocketFeed) {
    this.#feed = feed;
  }

  /** The sockets that follow the hub. */
  get size(): number {
    return this.#sockets.size;
  }

  /**
   * Adds a socket (what `socket.subscribe(hub)` calls); returns the function that removes it.
   * @example const leave = hub.join(socket)
   */
  join(socket: Socket): () => void {
    this.#sockets.add(socket);
    if (this.#feed) this.#follow(this.#feed);
    return () => {
      this.#sockets.delete(socket);
      if (this.#sockets.size === 0) this.#unfollow();
    };
  }

  /**
   * Sends one message to every socket: `html`, or a function that renders it (called once, and only when a socket
   * follows). Resolves to the number of sockets it was handed to.
   * @example await hub.send(() => <CommentList comments={store.all()} />) // → 3
   */
  async send(html: string | Promise<string> | (() => string | Promise<string>)): Promise<number> {
    if (this.#sockets.size === 0) {
      if (typeof html !== 'function') Promise.resolve(html).catch(() => {});
      return 0;
    }
    const text = await (typeof html === 'function' ? html() : html);
    if (typeof text !== 'string') throw new TypeError(`SocketHub: send() got ${typeof text}, not an HTML string`);
    return this.#write(encoder.encode(text));
  }

  /** Closes every socket (1012, service restart: htmx 2 and 4 reconnect) and stops following the broker. */
  close(): void {
    for (const socket of [...this.#sockets]) socket.close(1012, 'service restart');
    this.#unfollow();
  }

  // Cleared now, not when the loop ends: a socket that joins meanwhile starts a subscription of its own.
  #unfollow(): void {
    const following = this.#following;
    this.#following = undefined;
    following?.abort();
  }

  // Handed at once to every socket with no send of its own still rendering: a promise only where there is one.
  #write(bytes: Uint8Array): Promise<number> {
    let sent = 0;
    let waits: Promise<boolean>[] | undefined;
    for (const socket of this.#sockets) {
      const ok = sendBytes(socket, bytes);
      if (ok === true) sent++;
      else if (ok !== false) (waits ??= []).push(ok);
    }
    if (!waits) return Promise.resolve(sent);
    return Promise.all(waits).then((oks) => oks.reduce((n, ok) => (ok ? n + 1 : n), sent));
  }

  // Follows the topic while sockets follow the hub: each message rendered once, its bytes to every socket.
  #follow(feed: SocketFeed): void {
    if (this.#following) return;
    const following = (this.#following = new AbortController());
    const logger = feed.logger ?? consoleLogger;
    // Cannot reject: the loop is inside the try, whose catch logs.
    void (async () => {
      try {
        for await (const message of feed.broker.subscribe(feed.topic, following.signal)) {
          if (message.gap) {
            // What was published meanwhile is unknown: the sockets reconnect, and open() draws the state afresh.
            for (const socket of [...this.#sockets]) socket.close(1012, 'service restart');
            continue;
          }
          let html: string;
          try {
            html = await feed.render(message);
          } catch (err) {
            logger.error(`pagetree: SocketHub could not render message ${message.id} of ${feed.topic}:`, err);
            continue;
          }
          // Not awaited: a socket still rendering a send of its own gets these bytes after it (sendBytes keeps each
          // socket's order), and must not hold up the others, nor the next message (#write never rejects).
          void this.#write(encoder.encode(html));
        }
      } catch (err) {
        logger.error(`pagetree: SocketHub's subscription to ${feed.topic} failed:`, err);
      } finally {
        if (this.#following === following) {
          this.#following = undefined;
          // The subscription ended while sockets follow (the broker closed): they reconnect.
          if (!following.signal.aborted) for (const socket of [...this.#sockets]) socket.close(1012, 'service restart');
        }
      }
    })();
  }
}
