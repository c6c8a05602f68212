// The node:http listener: a ServeMux (or any handler) answering node's requests.
//
// The hot path writes a LiteResponse's status, headers and string body
// straight to the ServerResponse; a real Response is streamed. Nothing a
// client sends can crash the process: node answers unparsable requests with
// 400/431 itself, a bad Host gets 400, a handler that throws or rejects gets
// a 500 with no detail, and a client that goes away mid-response is dropped.

import { ServerResponse, type IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { Readable, type Duplex } from 'node:stream';
import { pipeline } from 'node:stream';
import {
  answerOf,
  consoleLogger,
  guardLogger,
  handlerFailed,
  requestFacts,
  serveHandler,
  takeEvents,
  takeSocket,
  textError,
  validHost,
  type Answer,
  type EventSink,
  type Handler,
  type Logger,
  type SocketEndpoint,
} from '../adapter.ts';
// ServeMux, a name of the root entry, from its own file: the root would load every feature (layers.test.ts).
import { ServeMux } from '../mux/serve-mux.ts';
import { createRequest } from './request.ts';
import { shutdownOf, shuttingDown } from './shutdown.ts';

/** A node:http request listener. */
export type NodeListener = (incoming: IncomingMessage, outgoing: ServerResponse) => void;

/** Options of `toNodeListener` (and `serve`). */
export interface ListenerOptions {
  /** Request bodies larger than this many bytes fail with HttpError(413) when read (default 10 MiB). */
  maxBodySize?: number;
  /** Where failures are reported (default: the mux's logger, else the console). */
  logger?: Logger;
}

/**
 * Where a listener's or a server's failures are reported: the option, else the mux's logger, else the console.
 * @example loggerFor(mux, {}) === mux.logger // → true
 */
export function loggerFor(handler: Handler | ServeMux, options: ListenerOptions): Logger {
  return options.logger ? guardLogger(options.logger) : handler instanceof ServeMux ? handler.logger : consoleLogger;
}

/**
 * A node:http listener that serves a ServeMux or handler.
 * @example http.createServer(toNodeListener(mux)).listen(3000)
 */
export function toNodeListener(handler: Handler | ServeMux, options: ListenerOptions = {}): NodeListener {
  return listenerWith(handler, options, send);
}

/**
 * The `upgrade` listener of a node server: the request is routed as any other; a socket route's answer (its
 * endpoint) is opened by `open` (websocket.ts), any other answer written on the socket, which then closes.
 * @example server.on('upgrade', toUpgradeListener(mux, {}, (endpoint, incoming, socket, head) => sockets.open(…)))
 */
export function toUpgradeListener(
  handler: Handler | ServeMux,
  options: ListenerOptions,
  open: (endpoint: SocketEndpoint, incoming: IncomingMessage, socket: Duplex, head: Buffer) => boolean,
): (incoming: IncomingMessage, socket: Duplex, head: Buffer) => void {
  const heads = new WeakMap<IncomingMessage, Buffer>();
  const listener = listenerWith(handler, options, (outgoing, req, res, logger) => {
    const endpoint = takeSocket(res);
    const socket = outgoing.socket;
    if (endpoint && socket && !outgoing.destroyed && !outgoing.headersSent) {
      outgoing.detachSocket(socket);
      // Taken out of the map: the socket keeps its upgrade request (its context) alive, and so would keep the head.
      const head = heads.get(outgoing.req) ?? Buffer.alloc(0);
      heads.delete(outgoing.req);
      if (open(endpoint, outgoing.req, socket, head)) return;
      outgoing.assignSocket(socket); // ws is not installed: the answer says so (a 501)
    }
    send(outgoing, req, res, logger);
  });
  return (incoming, socket, head) => {
    if ((socket as { _httpMessage?: unknown })._httpMessage) {
      // An upgrade pipelined behind a request whose answer still owns the connection (both in one packet): node
      // hands it over anyway. Neither the socket nor a re-read can be given to it (assignSocket throws, a re-read is
      // never answered): the connection is dropped, as a client that pipelines an upgrade must expect.
      socket.destroy();
      return;
    }
    if (!opensWebSocket(incoming)) {
      reparse(incoming, socket, head);
      return;
    }
    // Node took its own listeners off an upgraded socket, its error listener too: a reset must not end the process.
    socket.on('error', () => socket.destroy());
    heads.set(incoming, head);
    const outgoing = new ServerResponse(incoming);
    outgoing.shouldKeepAlive = false;
    outgoing.assignSocket(socket as Socket);
    // Nothing follows an answer that did not upgrade: the connection closes once it is written, whether or not the
    // client ends its side (node no longer times an upgraded socket out: a half-open one would stay forever).
    outgoing.once('finish', () => (socket as Socket).destroySoon());
    listener(incoming, outgoing);
  };
}

// Whether an upgrade request asks for a WebSocket (GET, Upgrade: websocket): the only upgrade a route answers.
function opensWebSocket(incoming: IncomingMessage): boolean {
  return incoming.method === 'GET' && /^\s*websocket\s*$/i.test(incoming.headers.upgrade ?? '');
}

// Any other upgrade (curl --http2's `Upgrade: h2c`, on a POST too) is served as the plain request it also is, as node
// serves it when the server has no upgrade listener: with a listener node hands over the socket with the head parsed
// and the body unread, so the head is written again without its Upgrade and put back in front of the body, and the
// socket given to the server as a new connection, whose parser reads the request as any other (body, keep-alive).
function reparse(incoming: IncomingMessage, socket: Duplex, head: Buffer): void {
  const server = (incoming.socket as Socket & { server?: { emit(event: string, socket: Duplex): boolean } }).server;
  if (!server) {
    socket.destroy();
    return;
  }
  let text = `${incoming.method} ${incoming.url} HTTP/${incoming.httpVersion}\r\n`;
  const raw = incoming.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase();
    if (name === 'upgrade' || name === 'connection') continue;
    text += `${raw[i]}: ${raw[i + 1]}\r\n`;
  }
  socket.unshift(Buffer.concat([Buffer.from(text + '\r\n', 'latin1'), head]));
  server.emit('connection', socket);
}

// The listener, with what it does with the handler's answer (`deliver`): send it, or open a socket with it.
function listenerWith(
  handler: Handler | ServeMux,
  options: ListenerOptions,
  deliver: (outgoing: ServerResponse, req: Request, res: Response, logger: Logger) => void,
): NodeListener {
  const maxBodySize = options.maxBodySize ?? 10 * 1024 * 1024;
  const logger = loggerFor(handler, options);
  const call =
    handler instanceof ServeMux
      ? (req: Request) => handler.serveHTTP(req)
      : (req: Request) => serveHandler(handler, req, logger);
  return (incoming, outgoing) => {
    const req = createRequest(incoming, outgoing, maxBodySize);
    if (!validHost(req[requestFacts].target.host)) {
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
      if (!outgoing.destroyed)
        writeAnswer(outgoing, req, { status: 200, headers: { 'content-length': '0' }, body: null }, logger);
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
        (r) => deliver(outgoing, req, r, logger),
        (err: unknown) => fail(outgoing, req, err, logger),
      );
    } else {
      deliver(outgoing, req, res, logger);
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

// An event stream's body, written event by event: the adapter takes the stream's bytes itself (`takeEvents`) and
// writes each to the socket as it is sent (a fan-out writes one event to thousands of sockets, and a ReadableStream
// read per socket, a promise each, cost more than the write); a body it cannot take (read already) is pumped from
// its reader. It ends once, on the first of: the source ends (the answer ends), the source fails (logged, the
// socket closed), the client leaves (the source is cancelled: its cleanup runs), or the server shuts down (the
// source is cancelled and the answer ends cleanly, so the client reconnects at once).
function pumpEvents(outgoing: ServerResponse, req: Request, body: ReadableStream<Uint8Array>, logger: Logger): void {
  const shutdown = shutdownOf(serverOf(outgoing.req), logger);
  let ended = false;
  let cancel: (err?: unknown) => void = noop;
  let unhook = noop;
  const end = (how: 'end' | 'fail' | 'cancel', err?: unknown) => {
    if (ended) return;
    ended = true;
    unhook();
    if (how !== 'end') cancel(err);
    if (how === 'fail') {
      logger.error(`pagetree: streaming the response to ${req.method} ${req.url} failed:`, err);
      outgoing.destroy();
    } else if (!outgoing.destroyed) {
      outgoing.end();
    }
  };
  // Begun already: ended once the answer's head is out, not before this function has set it up.
  if (shutdown.started) queueMicrotask(() => end('cancel'));
  else unhook = shutdown.onStart(() => end('cancel'));
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
  writeAnswer(outgoing, req, answer, logger);
}

// An answer read, to the client: the connection's fate decided, then written.
function writeAnswer(outgoing: ServerResponse, req: Request, answer: Answer, logger: Logger): void {
  const incoming = outgoing.req;
  // An answer sent before a large request body was read closes the connection,
  // so that a client holding its body back cannot hold the socket (issue 12),
  // and so does every answer while the server shuts down: no keep-alive client
  // is then reset by the sweep of idle connections.
  if (largeBodyUnread(incoming)) {
    outgoing.shouldKeepAlive = false;
    lingerBeforeClose(incoming.socket);
  } else if (shuttingDown(serverOf(incoming))) {
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

// The server whose shutdown an answer obeys: the one its socket came from.
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
