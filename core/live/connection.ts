// One open WebSocket's connection (issue 44): the Socket a route's methods get, the limits at work (message size,
// queue, rate), the order of sends and of messages, and its one end. Only an adapter that opens sockets reaches it
// (`openSocket`, pagetree/adapter): the page step hands over an endpoint (live/socket.ts) and nothing of this file,
// so a bundle whose server opens no sockets (a Worker on mux.fetch) carries none of it.

import {
  byteSenders,
  type SendOptions,
  type Socket,
  type SocketConnection,
  type SocketEndpoint,
  type SocketHandlers,
  type SocketLimits,
  type SocketPeer,
  type SocketRegion,
} from './socket.ts';

const written = Promise.resolve(true);
const dropped = Promise.resolve(false);
const noop = () => {};

/**
 * The upgrade is done: the route's `open` runs with a Socket on `peer`; the adapter reports frames and the end to
 * the connection it returns. An adapter calls it (pagetree/adapter), not the page step.
 * @example const connection = openSocket(endpoint, peer); ws.on('message', (data) => connection.message(data))
 */
export function openSocket(endpoint: SocketEndpoint, peer: SocketPeer): SocketConnection {
  return new Connection(peer, endpoint.handlers, endpoint.limits).start();
}

/**
 * The socket a route's methods get: its methods on the prototype, so an open socket is one small object and not
 * four closures (issue 44.7). `htmx` is written by the connection as messages come.
 */
class OpenSocket implements Socket {
  htmx: 2 | 4 | undefined = undefined;
  readonly #connection: Connection;

  constructor(connection: Connection) {
    this.#connection = connection;
  }

  get signal(): AbortSignal {
    return this.#connection.signal;
  }

  send(html: string | Promise<string>, options?: SendOptions): Promise<boolean> {
    return this.#connection.send(html, options?.regions);
  }

  subscribe(hub: { join(socket: Socket): () => void }): () => void {
    return this.#connection.follow(hub);
  }

  close(code = 1000, reason = ''): void {
    checkClose(code, reason);
    this.#connection.end(code, reason);
  }
}

/**
 * One connection's state: the limits at work, the order of sends and of messages, and its one end. It is what the
 * adapter reports to (`message`, `closed`): no object of closures around it.
 */
class Connection implements SocketConnection {
  /** Made when `socket.signal` is first read: most sockets never read it (an AbortController, its signal and a
   * listener per hub were ~1 KiB a socket). */
  #aborter: AbortController | undefined;
  /** The hubs the socket follows (`subscribe`), by their leave functions: each called once, at the latest when the
   * socket ends. An array: a socket follows one hub or a few. */
  #follows: (() => void)[] | undefined;
  readonly socket: OpenSocket;
  readonly #peer: SocketPeer;
  readonly #handlers: SocketHandlers;
  readonly #limits: Required<SocketLimits>;
  #ended = false;
  #closeRan = false;
  /** The last send still rendering; later sends wait behind it. */
  #tail: Promise<boolean> | undefined;
  /** The message being handled, and how many wait behind it: the page sees one message at a time, in order. */
  #inbox: Promise<void> = Promise.resolve();
  #waiting = 0;
  // A token bucket: `burst` messages at once, refilled at `rate` per second.
  #tokens: number;
  #filled = performance.now();

  constructor(peer: SocketPeer, handlers: SocketHandlers, limits: Required<SocketLimits>) {
    this.#peer = peer;
    this.#handlers = handlers;
    this.#limits = limits;
    this.#tokens = limits.burst;
    this.socket = new OpenSocket(this);
    byteSenders.set(this.socket, (bytes) => this.sendBytes(bytes));
  }

  start(): SocketConnection {
    // Messages wait for open() (it may subscribe, or load what they need); #run's promise never rejects.
    this.#inbox = this.#run('open', () => this.#handlers.open?.(this.socket)) ?? this.#inbox;
    return this;
  }

  /** Aborts when the socket ends; one read after it ended is aborted already. */
  get signal(): AbortSignal {
    if (!this.#aborter) {
      this.#aborter = new AbortController();
      if (this.#ended) this.#aborter.abort();
    }
    return this.#aborter.signal;
  }

  /** Joins `hub` until the socket ends or the returned function is called (`socket.subscribe`). */
  follow(hub: { join(socket: Socket): () => void }): () => void {
    const leave = hub.join(this.socket);
    if (this.#ended) {
      leave();
      return noop;
    }
    // [leave], not [] then push: an empty array grows to room for 17 on its first push (~0.1 KiB a socket).
    if (this.#follows) this.#follows.push(leave);
    else this.#follows = [leave];
    return () => this.#unfollow(leave);
  }

  // Leaves one hub, once: by the function subscribe() returned, or when the socket ends.
  #unfollow(leave: () => void): void {
    const at = this.#follows?.indexOf(leave) ?? -1;
    if (at < 0) return;
    this.#follows!.splice(at, 1);
    leave();
  }

  // The socket has ended: its signal aborts (when it was read) and it leaves every hub it follows.
  #ending(): void {
    this.#ended = true;
    this.#tail = undefined;
    if (this.#aborter && !this.#aborter.signal.aborted) this.#aborter.abort();
    const follows = this.#follows;
    this.#follows = undefined;
    for (const leave of follows ?? []) {
      // A hub is any object with join() (a hand-written one too): one that throws is logged, and the others are left.
      try {
        leave();
      } catch (err) {
        this.#handlers.logger.error(`pagetree: ${this.#handlers.name}: leaving a hub as the socket ended failed:`, err);
      }
    }
  }

  message(data: string | Uint8Array): void {
    if (this.#ended) return;
    if (typeof data !== 'string') return this.end(1003, 'text messages only');
    // The adapter's limit counts bytes of the frame already; this counts a runtime that has none (UTF-16 length ≤ bytes).
    if (data.length > this.#limits.maxMessage) return this.end(1009, 'message too big');
    const now = performance.now(); // not Date.now(): a clock set back would empty the bucket
    this.#tokens = Math.min(this.#limits.burst, this.#tokens + ((now - this.#filled) / 1000) * this.#limits.rate);
    this.#filled = now;
    if (this.#tokens < 1 || this.#waiting >= this.#limits.burst) return this.end(1008, 'too many messages');
    this.#tokens--;
    this.#waiting++;
    this.#inbox = this.#inbox.then(() => {
      this.#waiting--;
      if (this.#ended) return;
      this.socket.htmx = htmxOf(data) ?? this.socket.htmx;
      return this.#run('message', () => this.#handlers.message(this.socket, data));
    });
  }

  // Runs a page method: a throw or a rejection is logged once and closes the socket with 1011 (htmx reconnects, and
  // open() draws the page's state afresh); the returned promise never rejects.
  #run(method: 'open' | 'message', fn: () => unknown): Promise<void> | undefined {
    const fail = (err: unknown) => {
      if (this.#ended) return;
      this.#handlers.logger.error(`pagetree: ${this.#handlers.name}: ${method}() failed; closing the socket:`, err);
      this.end(1011, 'internal error');
    };
    let result: unknown;
    try {
      result = fn();
    } catch (err) {
      fail(err);
      return undefined;
    }
    if (result instanceof Promise) return result.then(noop, fail);
    return undefined;
  }

  closed(code: number, reason: string): void {
    this.#ending();
    if (this.#closeRan) return;
    this.#closeRan = true;
    const close = this.#handlers.close;
    if (!close) return;
    const log = (err: unknown) => this.#handlers.logger.error(`pagetree: ${this.#handlers.name}: close() failed:`, err);
    // After open() and the message running now (the inbox never rejects): close() undoes what they did, so it must
    // not run before them (a client that leaves while an async open() loads would leave its state behind).
    void this.#inbox.then(() => {
      try {
        const result = close(this.socket, code, reason);
        if (result instanceof Promise) result.catch(log);
      } catch (err) {
        log(err);
      }
    });
  }

  /** Ends the socket from this side: nothing more is sent; the page's close() runs once the peer has closed. */
  end(code: number, reason: string): void {
    if (this.#ended) return;
    this.#ending();
    try {
      this.#peer.close(code, reason);
    } catch (err) {
      this.#handlers.logger.error(`pagetree: ${this.#handlers.name}: closing the socket failed:`, err);
    }
  }

  send(html: string | Promise<string>, regions: readonly SocketRegion[] | undefined): Promise<boolean> {
    // Each render is observed now: one that fails before its turn (or never gets one: the socket closed, a region
    // without an id threw) is no unhandled rejection; its failure is handled in its turn below.
    if (typeof html !== 'string') Promise.resolve(html).catch(noop);
    for (const r of regions ?? []) if (typeof r[1] !== 'string') Promise.resolve(r[1]).catch(noop);
    if (this.#ended) return dropped;
    const text = regions && regions.length > 0 ? this.#withRegions(html, regions) : html;
    if (typeof text === 'string' && this.#tail === undefined) return this.#write(text) ? written : dropped;
    if (typeof text !== 'string') Promise.resolve(text).catch(noop);
    const p: Promise<boolean> = (this.#tail ?? written)
      .then(() => text)
      .then(
        (t) => {
          if (this.#tail === p) this.#tail = undefined;
          if (typeof t === 'string') return this.#write(t);
          this.#failed(new TypeError(`socket.send() got ${typeof t}, not an HTML string`));
          return false;
        },
        (err: unknown) => {
          if (this.#tail === p) this.#tail = undefined;
          this.#failed(err);
          return false;
        },
      );
    this.#tail = p;
    return p;
  }

  sendBytes(bytes: Uint8Array): boolean | Promise<boolean> {
    if (this.#ended) return false;
    if (this.#tail === undefined) return this.#write(bytes);
    const p: Promise<boolean> = this.#tail.then(() => {
      if (this.#tail === p) this.#tail = undefined;
      return this.#write(bytes);
    });
    this.#tail = p;
    return p;
  }

  // html, then each region wrapped in an element with its id and hx-swap-oob; a string when nothing is a promise.
  #withRegions(html: string | Promise<string>, regions: readonly SocketRegion[]): string | Promise<string> {
    const parts: (string | Promise<string>)[] = [html];
    for (const [target, content, swap] of regions) {
      const id = this.#handlers.idOf(target);
      const how = swap ?? 'innerHTML';
      if (/["<>&]/.test(id) || /["<>&]/.test(how)) {
        throw new TypeError(
          `socket.send(): region ${JSON.stringify(id)} / swap ${JSON.stringify(how)} holds " < > or &`,
        );
      }
      const open = `<div id="${id}" hx-swap-oob="${how}">`;
      parts.push(open, content, '</div>');
    }
    if (parts.every((p) => typeof p === 'string')) return parts.join('');
    return Promise.all(parts).then((all) => all.join(''));
  }

  #write(data: string | Uint8Array): boolean {
    if (this.#ended) return false;
    try {
      this.#peer.send(data);
    } catch (err) {
      this.#failed(err);
      return false;
    }
    if (this.#peer.bufferedAmount > this.#limits.maxQueued) {
      this.end(1013, 'client too slow');
      return false;
    }
    return true;
  }

  #failed(err: unknown): void {
    if (this.#ended) return;
    this.#handlers.logger.error(`pagetree: ${this.#handlers.name}: a send failed; closing the socket:`, err);
    this.end(1011, 'internal error');
  }
}

// Which htmx sent a message: htmx 2's ws extension puts the request headers under HEADERS, htmx 4's hx-ws under
// headers. Read from the text, not parsed: parseMessage parses it once the page asks.
function htmxOf(data: string): 2 | 4 | undefined {
  if (data.includes('"HEADERS":')) return 2;
  if (data.includes('"headers":')) return 4;
  return undefined;
}

// What a close frame may carry (RFC 6455 §7.4): a code a peer may send and a reason of at most 123 UTF-8 bytes. A
// runtime's close() throws on anything else, after the socket stopped sending and before it closed: refused here,
// with what to give instead.
function checkClose(code: number, reason: string): void {
  const sendable =
    (code >= 1000 && code <= 1014 && ![1004, 1005, 1006].includes(code)) || (code >= 3000 && code <= 4999);
  if (!Number.isInteger(code) || !sendable) {
    throw new RangeError(
      `socket.close(${String(code)}): not a code a server may send; use 1000, 1008, 1011 or 4000–4999`,
    );
  }
  const bytes = encoder.encode(reason).byteLength;
  if (bytes > 123) {
    throw new RangeError(`socket.close(${code}, reason): the reason is ${bytes} bytes in UTF-8, over 123; shorten it`);
  }
}

const encoder = new TextEncoder();
