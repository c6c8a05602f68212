// Server-sent events: a text/event-stream answer whose events are rendered components (live regions).
//
//   eventStream(req, (s) => store.subscribe(() => s.send(<Counts />)), { retry: 2000 })
//
//   200 text/event-stream      retry: 2000              at once, so the headers go out now (": ok" without retry)
//                              data: <p>3 open</p>      one send(): a data: line per line of the HTML,
//                              data: <p>1 done</p>        then a blank line; `event:` and `id:` lines before
//                                                         when given
//                              : ping                   every `heartbeat` ms, so proxies keep the connection
//
// Lines that are not events (the first line, the pings) never end with a blank line: they cannot
// end an event block, so a `retry:` reaches htmx 4's parser with the first event (it drops a block
// without data). Events go out in send() order: a send whose HTML is still rendering (a Promise)
// holds back the sends after it. The stream ends once, whatever ends it: the client leaving (the
// body is cancelled), `req.signal`, close(), a render that fails, or a client so slow that more
// than 1 MiB waits for it. Then the heartbeat stops, `stream.signal` aborts, the cleanup `start`
// returned runs, and send() resolves false from then on.

import type { Broker, BrokerMessage } from './broker.ts';
import type { Logger } from '../kernel/logger.ts';
import { loggerOf } from '../kernel/request.ts';
import { liteResponse } from '../kernel/answer.ts';

/** Options of `eventStream`. */
export interface EventStreamOptions {
  /** Milliseconds between keep-alive comments (`: ping`); default 15000; 0 for none. */
  heartbeat?: number;
  /** The reconnection delay, in ms, the client should use; sent first as `retry:`. Default: none (the client's own). */
  retry?: number;
}

/** The open stream `eventStream` hands to its `start`. */
export interface EventStream {
  /**
   * Queues one event: `data` is rendered HTML (a JSX element: a string or a Promise of one) or text;
   * each line of it becomes a `data:` line. Resolves true once written, false when the stream has
   * ended. An `event` or `id` with a line break throws a TypeError.
   * @example await stream.send(<OpenCount open={3} />, { event: 'counts' }) // → true
   */
  send(data: string | Promise<string>, options?: { event?: string; id?: string }): Promise<boolean>;
  /** Ends the stream now; sends whose HTML is still rendering are dropped (they resolve false). */
  close(): void;
  /** Aborts once the stream ends: the client left, close() was called, or the request was aborted. */
  readonly signal: AbortSignal;
}

/** A client this many bytes behind is disconnected: its unread events are not kept without bound. */
const maxQueued = 1024 * 1024;

// Shared by every answer, never written to (a step that adds a header copies them).
const headers: Record<string, string> = {
  'content-type': 'text/event-stream; charset=utf-8',
  // no-transform: a compressing proxy would hold events back to fill its blocks.
  'cache-control': 'no-cache, no-transform',
  // nginx buffers proxied answers unless told not to.
  'x-accel-buffering': 'no',
};

const encoder = new TextEncoder();
// The same bytes for every stream: an adapter that frames each chunk frames it once (core/node).
const ping = encoder.encode(': ping\n');
const lineBreak = /\r\n|\r|\n/;
const written = Promise.resolve(true);
const dropped = Promise.resolve(false);
const noop = () => {};

/**
 * Answers with `text/event-stream` (server-sent events) for live regions: `start` runs once with
 * the stream and may return a cleanup (an unsubscribe), called exactly once when the stream ends.
 * The stream ends when the client leaves or `req.signal` aborts, on `close()`, when a render fails
 * or `start` rejects (the stream errors: the node adapter logs it and drops the connection), or when
 * more than 1 MiB of events waits for a client that stopped reading. A `start` that throws throws
 * from `eventStream`, so a page's error handler answers. A HEAD request gets the headers only.
 * @example return eventStream(req, (stream) => store.subscribe(() => stream.send(<Counts {...store.counts()} />)));
 */
export function eventStream(
  req: Request,
  start: (stream: EventStream) => void | (() => void) | Promise<void | (() => void)>,
  options: EventStreamOptions = {},
): Response {
  const heartbeat = options.heartbeat ?? 15_000;
  if (!(heartbeat >= 0 && heartbeat < 2 ** 31)) {
    throw new TypeError(`eventStream: heartbeat ${heartbeat} is not a number of ms; give 0 for none, or e.g. 15000`);
  }
  const retry = options.retry;
  if (retry !== undefined && !(Number.isInteger(retry) && retry >= 0)) {
    throw new TypeError(`eventStream: retry ${retry} is not a whole number of ms; give e.g. 2000`);
  }
  if (req.method === 'HEAD') return liteResponse(200, null, headers);

  // Where the bytes go. Until the body is read they are held here; the first read moves them to the body's queue
  // (`pull` runs only then: highWaterMark 0), and a server adapter may take them instead (`takeEvents`), the node
  // adapter to write them to the socket itself.
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let held: Uint8Array[] | undefined = [];
  let heldBytes = 0;
  let sink: EventSink | undefined;
  const body = new ReadableStream<Uint8Array>(
    {
      start: (c) => {
        controller = c;
      },
      pull: release,
      cancel: () => end('cancel'),
    },
    // Counted in bytes, so that -desiredSize is the number of bytes waiting for the client.
    { highWaterMark: 0, size: (chunk) => chunk.byteLength },
  );
  const aborter = new AbortController();
  let ended = false;
  let cleanup: (() => void) | undefined;
  let timer: ReturnType<typeof setInterval> | undefined;
  // The last send still waiting for its HTML; later sends wait behind it.
  let tail: Promise<boolean> | undefined;

  function end(how: 'close' | 'cancel' | 'error', reason?: unknown): void {
    if (ended) return;
    ended = true;
    if (timer !== undefined) clearInterval(timer);
    req.signal.removeEventListener('abort', onAbort);
    // After 'cancel' the stream is gone already; erroring drops the events a gone client would not read.
    if (sink) {
      if (how !== 'cancel') sink.end(how === 'error' ? reason : undefined);
    } else if (how === 'close') {
      release();
      controller.close();
    } else if (how === 'error') {
      controller.error(reason);
    }
    held = undefined;
    aborter.abort(reason);
    runCleanup();
  }

  function release(): void {
    const chunks = held;
    held = undefined;
    if (chunks) for (const chunk of chunks) controller.enqueue(chunk);
  }

  function runCleanup(): void {
    const fn = cleanup;
    cleanup = undefined;
    if (!fn) return;
    try {
      fn();
    } catch (err) {
      // Nothing is left to fail: the stream has ended. The mux that routed the request hears of it.
      loggerOf(req).error(`pagetree: the cleanup of eventStream for ${req.method} ${req.url} failed:`, err);
    }
  }

  // What start returned: the cleanup, run at once if the stream has already ended (an async start).
  function keepCleanup(fn: void | (() => void)): void {
    if (typeof fn !== 'function') return;
    cleanup = fn;
    if (ended) runCleanup();
  }

  function write(text: string): boolean {
    return writeBytes(encoder.encode(text));
  }

  function writeBytes(bytes: Uint8Array): boolean {
    if (ended) return false;
    let waiting: number;
    if (sink) waiting = sink.write(bytes);
    else if (held) {
      held.push(bytes);
      waiting = heldBytes += bytes.byteLength;
    } else {
      controller.enqueue(bytes);
      waiting = -controller.desiredSize!;
    }
    if (waiting > maxQueued) {
      end('error', new Error(`eventStream: the client of ${req.url} fell more than ${maxQueued} bytes behind`));
      return false;
    }
    return true;
  }

  function onAbort(): void {
    end('error', req.signal.reason);
  }

  // An encoded event, in send() order: at once when nothing is still rendering (true when written, false when the
  // stream has ended), else a promise, behind the last send.
  function sendBytes(bytes: Uint8Array): boolean | Promise<boolean> {
    if (ended) return false;
    if (tail === undefined) return writeBytes(bytes);
    const p: Promise<boolean> = tail.then(() => {
      if (tail === p) tail = undefined;
      return writeBytes(bytes);
    });
    tail = p;
    return p;
  }

  const stream: EventStream = {
    send(data, options) {
      const head = fields(options);
      if (ended) return dropped;
      if (typeof data === 'string') {
        const sent = sendBytes(encoder.encode(head + dataLines(data)));
        return typeof sent === 'boolean' ? (sent ? written : dropped) : sent;
      }
      // Handled from now on: a rejection before its turn is not an unhandled one.
      Promise.resolve(data).catch(noop);
      const p: Promise<boolean> = (tail ?? written)
        .then(() => data)
        .then(
          (html) => {
            if (tail === p) tail = undefined;
            if (typeof html === 'string') return write(head + dataLines(html));
            end('error', new TypeError(`eventStream: send() got ${typeof html}, not an HTML string`));
            return false;
          },
          (err: unknown) => {
            if (tail === p) tail = undefined;
            end('error', err);
            return false;
          },
        );
      tail = p;
      return p;
    },
    close: () => end('close'),
    signal: aborter.signal,
  };
  // EventHub writes the same encoded bytes to every subscriber.
  encodedSends.set(stream, sendBytes);
  takers.set(body, (s) => {
    // Read already (or being read): the bytes are the reader's; ended: the reader gets the end.
    if (ended || !held || body.locked) return undefined;
    const chunks = held;
    held = undefined;
    sink = s;
    for (const chunk of chunks) if (!writeBytes(chunk)) break;
    return () => end('cancel');
  });

  write(retry === undefined ? ': ok\n' : `retry: ${retry}\n`);
  if (req.signal.aborted) {
    onAbort();
    return liteResponse(200, body, headers);
  }
  req.signal.addEventListener('abort', onAbort);
  let started: ReturnType<typeof start>;
  try {
    started = start(stream);
  } catch (err) {
    end('cancel');
    throw err;
  }
  if (started instanceof Promise) {
    started.then(keepCleanup, (err: unknown) => end('error', err));
  } else {
    keepCleanup(started);
  }
  if (heartbeat > 0 && !ended) timer = setInterval(() => writeBytes(ping), heartbeat);
  return liteResponse(200, body, headers);
}

// A stream's sendBytes: written at once (true, or false when it has ended), or a promise behind a send still rendering.
const encodedSends = new WeakMap<EventStream, (bytes: Uint8Array) => boolean | Promise<boolean>>();

/**
 * Where a server adapter puts an event stream's bytes when it takes them from the stream itself (`takeEvents`)
 * instead of reading the body: the node adapter writes each event to the socket, without a ReadableStream read
 * (a promise) per stream per event.
 */
export interface EventSink {
  /** Writes one chunk (events, the first line, pings); returns how many bytes still wait for the client. */
  write(bytes: Uint8Array): number;
  /** The stream has ended: close() (no error), or it failed (a render, a client too far behind, the request aborted). */
  end(err?: unknown): void;
}

// The body of each event stream not yet read, and how to hand its bytes to a sink instead.
const takers = new WeakMap<ReadableStream<Uint8Array>, (sink: EventSink) => (() => void) | undefined>();

/**
 * Takes the bytes of an event stream's body (an `eventStream` or `EventHub` answer that nobody has read) into
 * `sink`: what was sent already at once, then each write as it happens. Returns the function that cancels the
 * stream (the client left: the stream's cleanup runs), or undefined for any other body, read or not ours.
 * @example const cancel = takeEvents(res.body, { write: (b) => (socket.write(b), socket.writableLength), end })
 */
export function takeEvents(body: ReadableStream<Uint8Array>, sink: EventSink): (() => void) | undefined {
  return takers.get(body)?.(sink);
}

/**
 * One event source for many clients: a live region that every open page shows the same way. A change is rendered
 * once and encoded once, and the same bytes go to every open stream (5,000 subscribers: one render, not 5,000).
 * `listen`, if given, runs when the first stream opens (subscribe to your store there) and its result, the
 * unsubscribe, when the last one ends.
 *
 *   const counts = new EventHub((hub) => store.subscribe(() => hub.send(() => <Counts {...store.counts()} />)));
 *   props(req) { return counts.stream(req); }                                    // each client
 *
 * @example await hub.send(() => <Counts {...store.counts()} />) // → 3 (streams written); the render runs only when there are any
 */
export class EventHub {
  readonly #streams = new Set<EventStream>();
  readonly #listen: ((hub: EventHub) => void | (() => void)) | undefined;
  #unlisten: void | (() => void) = undefined;
  readonly #feed: HubFeedResolved | undefined;
  /** The broker subscription while the hub follows its topic. */
  #following: AbortController | undefined;
  #linger: ReturnType<typeof setTimeout> | undefined;
  /** The last events, for clients that come back with Last-Event-ID: oldest first. */
  readonly #replay: { id: string; at: number; bytes: Uint8Array }[] = [];

  constructor(listen?: ((hub: EventHub) => void | (() => void)) | HubFeed) {
    if (typeof listen === 'function' || listen === undefined) {
      this.#listen = listen;
      return;
    }
    const size = listen.replay?.size ?? 100;
    const age = listen.replay?.age ?? 300;
    if (!(Number.isInteger(size) && size >= 0) || !(age >= 0 && age < 2 ** 31 / 1000)) {
      throw new TypeError(
        `EventHub: replay ${JSON.stringify(listen.replay)} needs a whole size >= 0 and age in seconds`,
      );
    }
    this.#feed = { broker: listen.broker, topic: listen.topic, render: listen.render, size, age };
  }

  /** The open streams. */
  get size(): number {
    return this.#streams.size;
  }

  /**
   * Answers one client with an event stream fed by this hub (`eventStream`'s answer and options); `start`, if
   * given, runs with the stream first, e.g. to send it the current state, and may return a cleanup. With a broker,
   * a client that comes back with `Last-Event-ID` gets the events it missed first, or one `refresh` event when
   * they are no longer kept.
   * @example return hub.stream(req, { retry: 2000 });
   */
  stream(
    req: Request,
    options: EventStreamOptions & { start?: (stream: EventStream) => void | (() => void) } = {},
  ): Response {
    const { start, ...streamOptions } = options;
    return eventStream(
      req,
      (stream) => {
        const cleanup = start?.(stream);
        if (this.#feed) {
          this.#resume(stream, req.headers.get('last-event-id'));
          this.#follow(this.#feed, loggerOf(req));
        } else if (this.#streams.size === 0) this.#unlisten = this.#listen?.(this);
        this.#streams.add(stream);
        return () => {
          this.#streams.delete(stream);
          if (this.#streams.size === 0) this.#idle();
          if (typeof cleanup === 'function') cleanup();
        };
      },
      streamOptions,
    );
  }

  /**
   * Sends one event to every open stream: `data` is the HTML, or a function that renders it (called once, and only
   * when a stream is open). Resolves to the number of streams it was written to.
   * @example hub.send(() => <Counts {...store.counts()} />, { event: 'counts' })
   */
  async send(
    data: string | Promise<string> | (() => string | Promise<string>),
    options?: { event?: string; id?: string },
  ): Promise<number> {
    const head = fields(options);
    if (this.#streams.size === 0) {
      if (typeof data !== 'function') Promise.resolve(data).catch(noop);
      return 0;
    }
    const html = await (typeof data === 'function' ? data() : data);
    if (typeof html !== 'string') throw new TypeError(`EventHub: send() got ${typeof html}, not an HTML string`);
    return this.#write(encoder.encode(head + dataLines(html)));
  }

  /** Ends every open stream (the clients reconnect, to whatever serves them then), and stops following the broker. */
  close(): void {
    for (const stream of [...this.#streams]) stream.close();
    clearTimeout(this.#linger);
    this.#following?.abort();
  }

  // Written at once to every stream with no send of its own still rendering, which is all of them but rarely: a
  // promise is waited for only where there is one (5,000 of them and their Promise.all: ~0.5 ms a change, with the
  // promise hooks AsyncLocalStorage turns on).
  #write(bytes: Uint8Array): Promise<number> {
    let sent = 0;
    let waits: Promise<boolean>[] | undefined;
    for (const stream of this.#streams) {
      const ok = encodedSends.get(stream)!(bytes);
      if (ok === true) sent++;
      else if (ok !== false) (waits ??= []).push(ok);
    }
    if (!waits) return Promise.resolve(sent);
    return Promise.all(waits).then((oks) => oks.reduce((n, ok) => (ok ? n + 1 : n), sent));
  }

  // The last stream has gone: without a broker, the listener stops now; with one, the hub keeps following the
  // topic for the replay age, so that a client that reconnects meanwhile misses nothing.
  #idle(): void {
    if (!this.#feed) {
      const unlisten = this.#unlisten;
      this.#unlisten = undefined;
      if (typeof unlisten === 'function') unlisten();
      return;
    }
    clearTimeout(this.#linger);
    this.#linger = setTimeout(() => this.#following?.abort(), this.#feed.age * 1000);
    (this.#linger as { unref?: () => void }).unref?.();
  }

  // Subscribes to the topic unless it already does: each message is rendered once, kept for replay, and written
  // to every open stream with the message's id.
  // Failures go to the logger of the mux that served the stream that started it.
  #follow(feed: HubFeedResolved, logger: Logger): void {
    clearTimeout(this.#linger);
    if (this.#following) return;
    const following = (this.#following = new AbortController());
    // Cannot reject: the loop is inside the try, whose catch logs and whose finally only closes streams.
    void (async () => {
      try {
        for await (const message of feed.broker.subscribe(feed.topic, following.signal)) {
          if (message.gap) {
            // The broker reconnected: what was published meanwhile is unknown, so every client reloads the region.
            this.#replay.length = 0;
            await this.#write(encoder.encode(refreshEvent(undefined)));
            continue;
          }
          let html: string;
          try {
            html = await feed.render(message);
          } catch (err) {
            logger.error(`pagetree: EventHub could not render message ${message.id} of ${feed.topic}:`, err);
            continue;
          }
          const bytes = encoder.encode(fields({ id: message.id }) + dataLines(html));
          this.#keep(message.id, bytes);
          await this.#write(bytes);
        }
      } catch (err) {
        logger.error(`pagetree: EventHub's subscription to ${feed.topic} failed:`, err);
      } finally {
        if (this.#following === following) {
          this.#following = undefined;
          this.#replay.length = 0; // what follows was not heard: a client coming back gets a refresh
          // A subscription that ended while clients are connected (the broker closed): they reconnect.
          for (const stream of [...this.#streams]) stream.close();
        }
      }
    })();
  }

  #keep(id: string, bytes: Uint8Array): void {
    const { size, age } = this.#feed!;
    const now = Date.now();
    this.#replay.push({ id, at: now, bytes });
    while (this.#replay.length > size || (this.#replay.length > 0 && now - this.#replay[0]!.at > age * 1000)) {
      this.#replay.shift();
    }
  }

  // A client back with the id of the last event it saw: the events after it, or a refresh when they are gone.
  #resume(stream: EventStream, lastId: string | null): void {
    if (lastId === null) return;
    const now = Date.now();
    const kept = this.#replay.filter((e) => now - e.at <= this.#feed!.age * 1000);
    const at = kept.findIndex((e) => e.id === lastId);
    // A send settles to true or false, never rejects (a failed write ends the stream): nothing to wait for here.
    const send = encodedSends.get(stream)!;
    if (at === -1) {
      void send(encoder.encode(refreshEvent(kept.at(-1)?.id)));
      return;
    }
    for (const event of kept.slice(at + 1)) void send(event.bytes);
  }
}

// The event that tells a client to reload its region: `id` is the latest kept, so that a reconnect resumes from it.
function refreshEvent(id: string | undefined): string {
  return `event: refresh\n${id === undefined ? '' : `id: ${id}\n`}data: refresh\n\n`;
}

/** What an `EventHub` follows instead of a listener: a broker's topic. */
export interface HubFeed {
  broker: Broker;
  topic: string;
  /** Renders the event of a message, once per message whatever the number of streams. */
  render: (message: BrokerMessage) => string | Promise<string>;
  /** The events kept for clients that reconnect: how many (default 100) and for how long, in seconds (default 300). */
  replay?: { size?: number; age?: number };
}

/** A feed with its replay limits filled in. */
type HubFeedResolved = Required<Omit<HubFeed, 'replay'>> & { size: number; age: number };

// The `event:` and `id:` lines of an event; a line break in them would start another field.
function fields(options: { event?: string; id?: string } | undefined): string {
  if (!options) return '';
  let head = '';
  const { event, id } = options;
  if (event !== undefined) {
    if (lineBreak.test(event)) {
      throw new TypeError(
        `eventStream: send(): the event name ${JSON.stringify(event)} contains a line break; use a name without CR or LF`,
      );
    }
    head += `event: ${event}\n`;
  }
  if (id !== undefined) {
    if (lineBreak.test(id) || id.includes('\0')) {
      throw new TypeError(
        `eventStream: send(): the id ${JSON.stringify(id)} contains a line break or NUL; use an id without CR, LF or NUL`,
      );
    }
    head += `id: ${id}\n`;
  }
  return head;
}

// "a\r\nb" → "data: a\ndata: b\n\n": CRLF and CR become LF, as the client would read them.
function dataLines(data: string): string {
  return 'data: ' + data.split(lineBreak).join('\ndata: ') + '\n\n';
}
