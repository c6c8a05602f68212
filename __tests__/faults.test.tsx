// Faults, through a real node:http server: each is answered cleanly, nothing is half-written, and
// the server keeps serving.

import { once } from 'node:events';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ServeMux, mount, route, type PageRequest } from '../core/index.ts';
import { shutdown, toNodeListener } from '../core/node/index.ts';
import { send, type Reply } from './support/node-http.ts';

class Throws {
  props(): never {
    throw new Error('props failed');
  }
  page() {
    return <p>never</p>;
  }
}
class Rejects {
  async props(): Promise<never> {
    await new Promise((r) => setTimeout(r, 1));
    throw new Error('props rejected');
  }
  page() {
    return <p>never</p>;
  }
}
class Hangs {
  props() {
    return new Promise(() => {}); // never resolves
  }
  page() {
    return <p>never</p>;
  }
}
class RenderThrows {
  page() {
    return (
      <main>
        <h1>Top of the page</h1>
        {this.bottom()}
      </main>
    );
  }
  bottom(): JSX.Element {
    throw new Error('render failed');
  }
}
class Form {
  async props(req: PageRequest) {
    const form = await req.formData();
    return { size: String(form.get('data') ?? '').length };
  }
  page(props: { size: number }) {
    return <p>{props.size}</p>;
  }
}
class Slow {
  serveHTTP() {
    let n = 0;
    return new Response(
      new ReadableStream({
        async pull(c) {
          await new Promise((r) => setTimeout(r, 5));
          c.enqueue(new TextEncoder().encode(`line ${n++}\n`));
          if (n === 100) c.close();
        },
      }),
    );
  }
}
class Ok {
  page() {
    return <p>ok</p>;
  }
}
class App {
  throws = route('/throws', Throws);
  rejects = route('/rejects', Rejects);
  hangs = route('/hangs', Hangs);
  renderThrows = route('/render-throws', RenderThrows);
  form = route('POST /form', Form);
  slow = route('/slow', Slow);
  ok = route('/ok', Ok);
}

let server: Server;
let port: number;
beforeAll(async () => {
  const mux = new ServeMux();
  mount(mux, App, '/', '', { timeout: 200 });
  server = createServer(toNodeListener(mux, { maxBodySize: 1024 }));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  port = (server.address() as AddressInfo).port;
});
afterAll(() => shutdown(server, 1000));
beforeEach(() => jest.spyOn(console, 'error').mockImplementation(() => {}));
afterEach(() => jest.restoreAllMocks());

async function stillServing(): Promise<void> {
  expect((await send(port, '/ok')).body).toBe('<p>ok</p>');
}

test.each([
  ['props throws', '/throws', 500, 'Internal Server Error\n'],
  ['props rejects', '/rejects', 500, 'Internal Server Error\n'],
  ['props never resolves (timeout option)', '/hangs', 503, 'Service Unavailable\n'],
  ['a render throws half-way', '/render-throws', 500, 'Internal Server Error\n'],
])('%s: a clean answer, and the server keeps serving', async (_, path, status, body) => {
  const r = await send(port, path);
  expect([r.status, r.body]).toEqual([status, body]);
  expect(r.body).not.toContain('Top of the page');
  expect(r.headers['content-type']).toBe('text/plain; charset=utf-8');
  expect(console.error).toHaveBeenCalled();
  await stillServing();
});

test('a timed-out page says when to retry', async () => {
  const r = await send(port, '/hangs');
  expect(r.headers['retry-after']).toBe('1');
});

test('a client that disconnects mid-response is dropped; the server keeps serving', async () => {
  await new Promise<void>((resolve) => {
    const req = httpRequest({ host: '127.0.0.1', port, path: '/slow' }, (res) => {
      res.once('data', () => {
        req.destroy();
        setTimeout(resolve, 30);
      });
    });
    req.on('error', () => {});
    req.end();
  });
  await stillServing();
});

describe('request-size limit', () => {
  const form = (data: string) => ({
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: `data=${data}`,
  });

  test('a form under the limit is read', async () => {
    expect((await send(port, '/form', form('x'.repeat(1000)))).body).toBe('<p>1000</p>');
  });

  test('a form over the limit (by Content-Length) gets 413', async () => {
    const r = await send(port, '/form', form('x'.repeat(5000)));
    expect([r.status, r.body]).toEqual([413, 'Request body larger than 1024 bytes\n']);
    await stillServing();
  });

  test('a chunked body over the limit gets 413 as it streams in', async () => {
    const r = await new Promise<Reply>((resolve, reject) => {
      const req = httpRequest(
        {
          host: '127.0.0.1',
          port,
          path: '/form',
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded', 'transfer-encoding': 'chunked' },
        },
        (res) => {
          let body = '';
          res.on('data', (c: Buffer) => (body += c.toString()));
          res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
        },
      );
      req.on('error', reject);
      req.write('data=');
      for (let i = 0; i < 8; i++) req.write('y'.repeat(300));
      req.end();
    });
    expect(r.status).toBe(413);
    await stillServing();
  });
});
