// Test helpers for real servers: a node:http client that reads the whole answer.

import { request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import { connect } from 'node:net';
import type { ServeMux } from '../../core/index.ts';
import { serve, type ServeOptions } from '../../core/node/index.ts';

/**
 * serve() on a free port of 127.0.0.1, once it listens (no signal handlers: jest owns the process).
 * @example const server = await listen(mux); const port = portOf(server);
 */
export function listen(on: ServeMux, options: ServeOptions = {}): Promise<Server> {
  return new Promise((resolve) => {
    const s = serve(on, {
      port: 0,
      hostname: '127.0.0.1',
      handleSignals: false,
      ...options,
      onListen: () => resolve(s),
    });
  });
}

/** The port a server listens on. */
export function portOf(server: Server): number {
  return (server.address() as { port: number }).port;
}

/** What a client sees of an answer from a real server. */
export interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/**
 * Sends a request to 127.0.0.1:port and reads the whole answer.
 * @example await send(port, '/users/1', { method: 'HEAD' })
 */
export function send(
  port: number,
  path: string,
  options: { method?: string; headers?: Record<string, string>; body?: string | Buffer } = {},
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port, path, method: options.method ?? 'GET', headers: options.headers },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

/**
 * A request from a loopback address of choice (any 127.x.y.z reaches a server on 127.0.0.1), as a browser of the same
 * site sends it: its status, Location and the first cookie it sets, the body left unread.
 * @example await sendFrom(port, '127.0.0.3', 'GET', '/admin/', { cookie }) // → { status: 303, location: '/login?…' }
 */
export function sendFrom(
  port: number,
  from: string,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body = '',
): Promise<{ status: number; location?: string; cookie?: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        path,
        method,
        localAddress: from,
        headers: { 'sec-fetch-site': 'same-origin', ...headers },
      },
      (res) => {
        res.resume();
        const cookie = res.headers['set-cookie']?.[0]?.split(';')[0];
        res.on('end', () => resolve({ status: res.statusCode!, location: res.headers.location, cookie }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * Sends raw bytes and returns the raw answer, for requests a client library would refuse to send.
 * @example await raw(port, 'GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n') // → "HTTP/1.1 400 Bad Request…"
 */
export function raw(port: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.end(text));
    let out = '';
    socket.setEncoding('latin1');
    socket.on('data', (c: string) => (out += c));
    socket.on('close', () => resolve(out));
    socket.on('error', reject);
  });
}

/** An open event stream on a real server: what it has received, and how it ended ('end', 'aborted' or 'error'). */
export interface OpenStream {
  res: IncomingMessage;
  text: () => string;
  ended: Promise<string>;
}

/**
 * GETs an event stream from 127.0.0.1:port and resolves once its first bytes have arrived.
 * @example const s = await openStream(port, '/admin/events', { 'hx-request': 'true' }); … await s.ended // → "end"
 */
export function openStream(port: number, path: string, headers: Record<string, string> = {}): Promise<OpenStream> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port, path, headers: { accept: 'text/event-stream', ...headers } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        const ended = new Promise<string>((done) => {
          res.on('end', () => done('end'));
          res.on('aborted', () => done('aborted'));
          res.on('error', () => done('error'));
        });
        res.on('data', (c: string) => {
          const first = text === '';
          text += c;
          if (first) resolve({ res, text: () => text, ended });
        });
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/**
 * Logs in to the example app at `base` through its login form, and returns the session cookie (`name=value`).
 * @example const cookie = await adminCookie(app.url, 'a@b.c', 'secret'); openStream(port, '/admin/events', { cookie })
 */
export async function adminCookie(base: string, email: string, password: string): Promise<string> {
  const res = await fetch(base + '/login', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin' },
    body: new URLSearchParams({ email, password }),
    redirect: 'manual',
  });
  const pair = res.headers.getSetCookie()[0]?.split(';')[0];
  if (res.status !== 303 || !pair) throw new Error(`adminCookie(): the login answered ${res.status}`);
  return pair;
}
