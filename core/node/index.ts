// pagetree/node: serve a ServeMux (or any handler) with node:http.
//
// The hot path writes a LiteResponse's status, headers and string body
// straight to the ServerResponse; a real Response is streamed. Nothing a
// client sends can crash the process: node answers unparsable requests with
// 400/431 itself, a bad Host gets 400, a handler that throws or rejects gets
// a 500 with no detail, and a client that goes away mid-response is dropped.

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream';
import { callHandler, setRoute, type Handler } from '../kernel/request.ts';
import { requestTarget } from '../kernel/adapter.ts';
import { ServeMux } from '../mux/serve-mux.ts';
import { consoleLogger, guardLogger, handlerFailed, type Logger } from '../kernel/logger.ts';
import { answerOf, liteResponse, textError, type Answer } from '../kernel/answer.ts';
import { createRequest } from './request.ts';
import { takeEvents, type EventSink } from '../live/event-stream.ts';

/** A node:http request listener. */
export type NodeListener = (incoming: IncomingMessage, outgoing: ServerResponse) => void;

// Whether a host (from Host or an absolute-form target) makes a URL: `req.url`
// must parse, for pages and for the body (a Request needs a URL). Hosts repeat,
// so the answer is cached (a bounded map: a scanner's random hosts are parsed each time).
const hostVerdicts = new Map<string, boolean>();
function validHost(host: string): boolean {
  let ok = hostVerdicts.get(host);
  if (ok === undefined) {
    // No userinfo (a Request refuses credentials in its URL), nothing that would end the authority.
    ok = host === '' || (!/[@/\\?#]/.test(host) && URL.canParse(`http://${host}/`));
    if (hostVerdicts.size < 256) hostVerdicts.set(host, ok);
  }
  return ok;
}

/** Options of `toNodeListener` (and `serve`). */
export interface ListenerOptions {
  /** Request bodies larger than this many bytes fail with HttpError(413) when read (default 10 MiB). */
  maxBodySize?: number;
  /** Where failures are reported (default: the mux's logger, else the console). */
  logger?: Logger;
}

// Where a listener's or a server's failures are reported: the option, else the mux's logger, else the console.
function loggerFor(handler: Handler | ServeMux, options: ListenerOptions): Logger {
  return options.logger ? guardLogger(options.logger) : handler instanceof ServeMux ? handler.logger : consoleLogger;
}

/**
 * A node:http listener that serves a ServeMux or handler.
 * @example http.createServer(toNodeListener(mux)).listen(3000)
 */
export function toNodeListener(handler: Handler | ServeMux, options: ListenerOptions = {}): NodeListener {
  const maxBodySize = options.maxBodySize ?? 10 * 1024 * 1024;
  const logger = loggerFor(handler, options);
  const call =
    handler instanceof ServeMux
      ? (req: Request) => handler.serveHTTP(req)
      : (req: Request) => callHandler(handler, setRoute(req, '', [], [], logger));
  return (incoming, outgoing) => {
    const req = createRequest(incoming, outgoing, maxBodySize);
    if (!validHost(requestTarget(req).host)) {
      send(outgoing, req, textError(400, 'Bad Request: malformed Host header'), logger);
      return;
    }
    if (repeatsHost(incoming.rawHeaders)) {
      // Go answers 400 too: node keeps the first Host, a proxy may have routed by the second.
      send(outgoing, req, textError(400, 'Bad Request: too many Host headers'), logger);
      return;
    }
    if (incoming.url === '*' && incoming.method === 'OPTIONS') {
      // A question about the server, not a resource (RFC 9110 §9.3.7): answered as Go's server answers it
      // (globalOptionsHandler), after the Host checks and before any handler. "*" with another method reaches the
      // mux: a 400, as in Go.
      send(outgoing, req, liteResponse(200, null, { 'content-length': '0' }), logger);
      return;
    }
    let res: Response | Promise<Response>;
    try {
      res = call(req);
    } catch (err) {
      fail(outgoing, req, err, logger);
      return;
    }
    if (res instanceof Promise) {
      res.then(
        (r) => send(outgoing, req, r, logger),
        (err: unknown) => fail(outgoing, req, err, logger),
      );
    } else {
      send(outgoing, req, res, logger);
    }
  };
}

// Whether Host appears more than once. Node's parsed headers keep the first.
function repeatsHost(raw: string[]): boolean {
  let seen = false;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    // 'Host' and 'host' compared as they are: a lower-cased copy of each request's name is garbage.
    if (name.length === 4 && (name === 'Host' || name === 'host' || name.toLowerCase() === 'host')) {
      if (seen) return true;
      seen = true;
    }
  }
  return false;
}

// Servers being shut down (`shutdown`): their answers close the connection.
const closing = new WeakSet<object>();
let closingCount = 0;

// What runs when a server's shutdown starts: its open event streams' ends and the users' onShutdown hooks.
const shutdownHooks = new WeakMap<object, Set<() => void>>();
// The logger each server of serve() reports through (its mux's, or serve's `logger` option): a failing hook's error.
const serverLoggers = new WeakMap<object, Logger>();

function hooksOf(server: object): Set<() => void> {
  let hooks = shutdownHooks.get(server);
  if (!hooks) shutdownHooks.set(server, (hooks = new Set()));
  return hooks;
}

/**
 * Runs `fn` once when `shutdown(server)` starts (and so on SIGTERM under `serve`), as Go's
 * `Server.RegisterOnShutdown`: end long-lived work there (a poll loop, a stream of your own), so that shutdown
 * need not wait for its timeout. Registered during a shutdown, it runs at once. Returns a function that removes it.
 * @example onShutdown(server, () => jobs.stop())
 */
export function onShutdown(server: Server, fn: () => void): () => void {
  if (closing.has(server)) {
    runHook(server, fn);
    return noop;
  }
  const hooks = hooksOf(server);
  const once = () => runHook(server, fn);
  hooks.add(once);
  return () => void hooks.delete(once);
}

function runHook(server: object, fn: () => void): void {
  try {
    fn();
  } catch (err) {
    (serverLoggers.get(server) ?? consoleLogger).error('pagetree: an onShutdown hook failed:', err);
  }
}

// An event stream's body, written event by event: the adapter takes the stream's bytes itself (`takeEvents`) and
// writes each to the socket as it is sent (a fan-out writes one event to thousands of sockets, and a ReadableStream
// read per socket, a promise each, cost more than the write); a body it cannot take (read already) is pumped from
// its reader. It ends once, on the first of: the source ends (the answer ends), the source fails (logged, the
// socket closed), the client leaves (the source is cancelled: its cleanup runs), or the server shuts down (the
// source is cancelled and the answer ends cleanly, so the client reconnects at once).
function pumpEvents(outgoing: ServerResponse, req: Request, body: ReadableStream<Uint8Array>, logger: Logger): void {
  const server = serverOf(outgoing.req);
  let ended = false;
  let cancel: (err?: unknown) => void = noop;
  const end = (how: 'end' | 'fail' | 'cancel', err?: unknown) => {
    if (ended) return;
    ended = true;
    shutdownHooks.get(server)?.delete(onShutdown);
    if (how !== 'end') cancel(err);
    if (how === 'fail') {
      logger.error(`pagetree: streaming the response to ${req.method} ${req.url} failed:`, err);
      outgoing.destroy();
    } else if (!outgoing.destroyed) {
      outgoing.end();
    }
  };
  const onShutdown = () => end('cancel');
  if (closing.has(server)) queueMicrotask(onShutdown);
  else hooksOf(server).add(onShutdown);
  outgoing.once('close', () => end('cancel'));
  // A source that fails while the client is too slow to read fails the answer now; one that fails because the
  // client left (its request's signal) is no failure of the server's.
  const failed = (err: unknown) => end(outgoing.destroyed ? 'cancel' : 'fail', err);
  const socket = outgoing.socket;
  socket?.cork(); // the head and what was sent before now go out in one packet
  const taken = takeEvents(
    body,
    writeEvents(outgoing, (err) => (err === undefined ? end('end') : failed(err))),
  );
  socket?.uncork();
  if (taken) {
    cancel = taken;
    return;
  }
  const reader = body.getReader();
  cancel = (err) => void reader.cancel(err).catch(noop);
  reader.closed.catch(failed);
  const pump = async () => {
    while (!ended) {
      const next = await reader.read();
      if (ended) return;
      if (next.done) return end('end');
      if (!outgoing.write(next.value)) await drained(outgoing);
    }
  };
  pump().catch((err: unknown) => end('fail', err));
}

// Where an event stream's bytes go. With its socket (not queued behind a pipelined answer), each write is one
// socket.write of the whole chunk, framed once for every stream that gets the same bytes: outgoing.write makes it
// four socket writes (size, CRLF, bytes, CRLF) and a tick to uncork, ~4 µs more per stream and event (bench/fanout,
// 5,000 streams: 78 ms of server CPU per change, 55 ms this way). Without, through the answer, which queues until
// its socket is free.
function writeEvents(outgoing: ServerResponse, end: (err?: unknown) => void): EventSink {
  const socket = outgoing.socket;
  if (!socket) return { write: (bytes) => (outgoing.write(bytes), outgoing.writableLength), end };
  const chunked = outgoing.chunkedEncoding;
  outgoing.flushHeaders(); // from here on the socket carries only this answer's chunks, then its end
  return {
    write(bytes) {
      // An empty chunk would read as the answer's end ("0\r\n\r\n"); eventStream writes none, but node skips them too.
      if (!socket.destroyed && bytes.byteLength > 0) socket.write(chunked ? chunkOf(bytes) : bytes);
      return socket.writableLength;
    },
    end,
  };
}

// The last chunk framed: an EventHub writes the same bytes to each of its streams.
let lastBytes: Uint8Array | undefined;
let lastChunk: Buffer | undefined;
const crlf = Buffer.from('\r\n', 'latin1');

// HTTP/1.1 chunked framing: "3\r\nabc\r\n".
function chunkOf(bytes: Uint8Array): Buffer {
  if (bytes !== lastBytes || !lastChunk) {
    lastChunk = Buffer.concat([Buffer.from(`${bytes.byteLength.toString(16)}\r\n`, 'latin1'), bytes, crlf]);
    lastBytes = bytes;
  }
  return lastChunk;
}

function drained(outgoing: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      outgoing.off('drain', done);
      outgoing.off('close', done);
      resolve();
    };
    outgoing.on('drain', done);
    outgoing.on('close', done);
  });
}

function send(outgoing: ServerResponse, req: Request, res: Response, logger: Logger): void {
  if (outgoing.destroyed) {
    dropAnswer(res); // the client went away
    return;
  }
  let answer: Answer;
  try {
    answer = answerOf(res);
  } catch (err) {
    fail(outgoing, req, err, logger);
    return;
  }
  const incoming = outgoing.req;
  // An answer sent before a large request body was read closes the connection,
  // so that a client holding its body back cannot hold the socket (issue 12),
  // and so does every answer while the server shuts down: no keep-alive client
  // is then reset by the sweep of idle connections.
  if (largeBodyUnread(incoming)) {
    outgoing.shouldKeepAlive = false;
    lingerBeforeClose(incoming.socket);
  } else if (closingCount > 0 && closing.has(serverOf(incoming))) {
    outgoing.shouldKeepAlive = false;
  }
  try {
    write(outgoing, req, answer, logger);
  } catch (err) {
    // node refuses a header it cannot write (ERR_INVALID_CHAR, a status out of range) by throwing from writeHead,
    // before anything is sent: the process must not die of it (issue 24).
    unwritable(outgoing, req, err, logger);
    dropBody(answer.body);
  }
}

// An answer nobody will read (its client gone): a stream body is cancelled, so that what feeds it stops now, not
// when it is collected: a streamed page's pending parts and their timeout (which would log a failure for a client
// that left), a compressor's memory.
function dropAnswer(res: Response): void {
  let answer: Answer;
  try {
    answer = answerOf(res);
  } catch {
    return; // not an answer at all: nothing to cancel
  }
  dropBody(answer.body);
}

// A body not sent: cancelled unless something reads it already. The cancel's promise is observed here.
function dropBody(body: Answer['body']): void {
  if (body instanceof ReadableStream && !body.locked) body.cancel().catch(noop);
}

// The answer as bytes, once: a string or bytes with its Content-Length in one writeHead and end; a stream piped (an
// event stream written event by event).
function write(outgoing: ServerResponse, req: Request, answer: Answer, logger: Logger): void {
  const { status, statusText, body, headers } = answer;
  if (body === null) {
    outgoing.writeHead(status, statusText, headers).end();
    return;
  }
  if (!(body instanceof ReadableStream)) {
    let head = headers;
    if (headers['content-length'] === undefined) {
      // Object.assign: ~70 ns; a spread with an added key: ~870 ns on Node 20 (bench/e2e profile).
      head = Object.assign({}, headers);
      head['content-length'] = String(Buffer.byteLength(body));
    }
    outgoing.writeHead(status, statusText, head).end(body);
    return;
  }
  // An empty statusText (new Response('x', { status: 404 })) gets the standard phrase, not "HTTP/1.1 404 ".
  outgoing.writeHead(status, statusText, headers);
  if (req.method === 'HEAD') {
    // GET's head and no body: node drops a HEAD's body bytes, so a piped feed would be read forever, unanswered.
    outgoing.end();
    dropBody(body);
    return;
  }
  // An event stream stays open until the client leaves: it ends when the server shuts down (the client reconnects,
  // to another instance if there is one), so that shutdown waits only for the other requests.
  const type = headers['content-type'];
  if (typeof type === 'string' && type.startsWith('text/event-stream')) {
    pumpEvents(outgoing, req, body, logger);
    return;
  }
  const stream = Readable.fromWeb(body as import('node:stream/web').ReadableStream);
  // A body that fails is the server's fault; a client gone is not. pipeline() destroys `outgoing` before it calls
  // back, so the two are told apart here, before it: the client gone, `outgoing` was destroyed first.
  stream.once('error', (err) => {
    if (!outgoing.destroyed) logger.error(`pagetree: streaming the response to ${req.method} ${req.url} failed:`, err);
  });
  pipeline(stream, outgoing, noop); // on a failure it destroys both: half a response must not look like a whole one
}

// An answer node refused to write: logged once, then a plain 500 if nothing was sent yet, else the socket closed.
function unwritable(outgoing: ServerResponse, req: Request, err: unknown, logger: Logger): void {
  logger.error(`pagetree: the answer to ${req.method} ${req.url} could not be written:`, err);
  if (outgoing.destroyed) return;
  if (outgoing.headersSent) {
    outgoing.destroy();
    return;
  }
  for (const name of outgoing.getHeaderNames()) outgoing.removeHeader(name);
  write(outgoing, req, answerOf(textError(500, 'Internal Server Error')), logger);
}

function noop(): void {}

// Go's closeWriteAndWait: a socket closed while the client is still sending its body gets a RST from the kernel,
// and a client that sees the RST before it read the answer loses it (a 413 for a form past its limits showed as a
// reset connection). So the answer ends with a FIN, what the client still sends is read and dropped, and the socket
// is closed 500 ms later (Go's rstAvoidanceDelay), unless the client closes first. node calls destroySoon() on
// the socket once an answer that closes the connection is written: this one socket gets its own.
const lingerMs = 500;

function lingerBeforeClose(socket: Socket | null): void {
  if (!socket || Object.hasOwn(socket, 'destroySoon')) return;
  socket.destroySoon = function (this: Socket) {
    this.end();
    this.resume();
    setTimeout(() => this.destroy(), lingerMs).unref();
  };
}

function serverOf(incoming: IncomingMessage): object {
  return (incoming.socket as { server?: object }).server ?? incoming; // a socket from net.Server has one
}

// A body not all received that node would have to read and discard to keep
// the connection: as Go (maxPostHandlerReadBytes), up to 256 KiB is worth it;
// more, or a chunked body of unknown size, is not. (Node says `complete` for a
// request without a body only after the listener returns: the headers decide.)
function largeBodyUnread(incoming: IncomingMessage): boolean {
  if (incoming.complete) return false;
  const length = incoming.headers['content-length'];
  if (length !== undefined) return Number(length) > 256 * 1024;
  return incoming.headers['transfer-encoding'] !== undefined;
}

function fail(outgoing: ServerResponse, req: Request, err: unknown, logger: Logger): void {
  const res = handlerFailed(logger, req, err);
  if (outgoing.destroyed) return;
  if (outgoing.headersSent) {
    outgoing.destroy(); // half a response must not look like a whole one
    return;
  }
  send(outgoing, req, res, logger);
}

/** serve()'s default `maxConnections` (see there). */
const defaultMaxConnections = 10_000;

/** Options of `serve`. */
export interface ServeOptions extends ListenerOptions {
  /** Port to listen on; 0 picks a free one. Default: `PORT` from the environment (0 too), else 3000. */
  port?: number;
  /** How long a client may take to send the request headers, in ms (default 15000; node's own is 60000). */
  headersTimeout?: number;
  /** How long a client may take to send the whole request, body included, in ms (default 60000; node's 300000). */
  requestTimeout?: number;
  /** How long an idle keep-alive connection stays open, in ms (default: node's, 5000). */
  keepAliveTimeout?: number;
  /**
   * Connections beyond this many are refused (closed at once, and a warning logged at most once a minute).
   * Default 10,000: an open event stream costs the process ~21 KiB, and one change sent to 10,000 of them ~0.11 s
   * of CPU on a small VM, nearly all of it the kernel's socket writes (bench/fanout); past that, run more instances. `Infinity` for no limit (node's default).
   */
  maxConnections?: number;
  /** Address to bind. Default: node's (all interfaces). */
  hostname?: string;
  /** Stop gracefully on SIGINT and SIGTERM (default true). */
  handleSignals?: boolean;
  /** Called once listening, with the URL; default prints it. */
  onListen?: (url: string) => void;
  /** How long in-flight requests may take to finish at shutdown, in ms (default 10000). */
  shutdownTimeout?: number;
}

/**
 * Serves a ServeMux or handler on node:http, prints the URL, and shuts down
 * gracefully on SIGINT/SIGTERM: stop accepting, let in-flight requests
 * finish, then exit. A port in use is one line through the logger (which port, and how to pick another) and exit
 * status 1 (with `handleSignals: false`, the status is set and the process left running); a listener of the
 * server's own `'error'` gets the error instead.
 * @example serve(mux, { port: 3000 }) // prints "pagetree: listening on http://localhost:3000"
 */
export function serve(handler: Handler | ServeMux, options: ServeOptions = {}): Server {
  const headersTimeout = options.headersTimeout ?? 15_000;
  const requestTimeout = options.requestTimeout ?? 60_000;
  const server = createServer(
    {
      headersTimeout,
      requestTimeout,
      // Node checks both timeouts every 30 s: a 15 s limit could hold for 45. Check at a quarter of the shorter.
      connectionsCheckingInterval: Math.max(50, Math.min(30_000, Math.min(headersTimeout, requestTimeout) / 4)),
      ...(options.keepAliveTimeout === undefined ? {} : { keepAliveTimeout: options.keepAliveTimeout }),
    },
    toNodeListener(handler, options),
  );
  server.maxConnections = options.maxConnections ?? defaultMaxConnections;
  const logger = loggerFor(handler, options);
  let warned = 0;
  server.on('drop', () => {
    if (Date.now() - warned < 60_000) return;
    warned = Date.now();
    logger.warn(
      `pagetree: refused a connection: ${server.maxConnections} are open (serve's maxConnections); ` +
        `run more instances, or raise the limit if the process has room`,
    );
  });
  const port = options.port ?? envPort(process.env.PORT);
  serverLoggers.set(server, logger);
  const info = (message: string) => (logger.info ? logger.info(message) : console.log(message));
  const onListen = options.onListen ?? ((url: string) => info(`pagetree: listening on ${url}`));
  server.listen(port, options.hostname, () => onListen(serverUrl(server, options.hostname)));
  const listenFailed = (err: NodeJS.ErrnoException) => portInUse(server, err, port, options, logger);
  server.once('error', listenFailed);
  server.once('listening', () => server.off('error', listenFailed));
  if (options.handleSignals ?? true) {
    const stop = (signal: string) => {
      info(`pagetree: ${signal}, finishing in-flight requests`);
      shutdown(server, options.shutdownTimeout ?? 10_000).then(
        () => process.exit(0),
        (err: unknown) => {
          logger.error('pagetree: shutdown failed', err);
          process.exit(1);
        },
      );
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    server.once('close', () => {
      process.removeListener('SIGINT', stop);
      process.removeListener('SIGTERM', stop);
    });
  }
  return server;
}

// A port in use (`npm start` twice, another server on it) is a mistake of the set-up, said in one line that names
// the port and how to pick another, not node's stack of an unhandled 'error'. An app that listens for the server's
// 'error' itself (`server.on('error', …)`, `await once(server, 'listening')`) gets it instead. serve() owns the
// process unless handleSignals is false: then the line is logged and the exit status set, and the caller decides.
// Any other failure to listen is thrown, as node would.
function portInUse(
  server: Server,
  err: NodeJS.ErrnoException,
  port: number,
  options: ServeOptions,
  logger: Logger,
): void {
  if (server.listenerCount('error') > 0) return;
  if (err.code !== 'EADDRINUSE') throw err;
  const other = port === 65535 ? 3000 : port + 1;
  const pick =
    options.port === undefined
      ? `pick another port: PORT=${other}`
      : `give serve() another port: serve(mux, { port: ${other} })`;
  const where = options.hostname ? `port ${port} of ${options.hostname}` : `port ${port}`;
  logger.error(
    `pagetree: ${where} is in use (another server listens on it, or this app runs already); stop that one, or ${pick}`,
  );
  process.exitCode = 1;
  // A moment for a logger that writes asynchronously; the timer does not hold a process that has nothing else to do.
  if (options.handleSignals ?? true) setTimeout(() => process.exit(1), 100).unref();
}

/**
 * Stops accepting connections, ends open event streams and runs the `onShutdown` hooks, waits for the other
 * in-flight requests, and closes connections still open after `timeout` ms.
 * @example await shutdown(server, 5000)
 */
export function shutdown(server: Server, timeout = 10_000): Promise<void> {
  if (!closing.has(server)) {
    closing.add(server);
    closingCount++;
    const hooks = [...hooksOf(server)];
    shutdownHooks.delete(server);
    for (const hook of hooks) hook();
  }
  return new Promise((resolve) => {
    const timer = setTimeout(() => server.closeAllConnections(), timeout);
    // A keep-alive connection turns idle once its in-flight response is done: close it then.
    const sweep = setInterval(() => server.closeIdleConnections(), 50);
    timer.unref();
    sweep.unref();
    server.close(() => {
      clearTimeout(timer);
      clearInterval(sweep);
      if (closing.delete(server)) closingCount--;
      resolve();
    });
    server.closeIdleConnections();
  });
}

// PORT from the environment: unset or empty, 3000; "0", a free port (as the port option); anything that is not a
// port number is an error, not a silent 3000.
function envPort(value: string | undefined): number {
  if (value === undefined || value.trim() === '') return 3000;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new RangeError(`serve(): PORT=${JSON.stringify(value)} is not a port number; set it to 0–65535 or unset it`);
  }
  return port;
}

function serverUrl(server: Server, hostname: string | undefined): string {
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;
  const host = !hostname || hostname === '0.0.0.0' || hostname === '::' ? 'localhost' : hostname;
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}
