// A scenario of event-stream.test.ts run in a child process (in-child.ts), where a rejection nobody handles ends the
// process as it would a user's app: a send() given a promise that rejects while an earlier send still renders. The
// rejected promise waits for its turn; it must be handled from the moment send() takes it.
//
//   renderRejects() → "fetch: <text> <how the body ended> <what each send resolved to> cleanups=1"
//                     "serve: …"

import { get as httpGet } from 'node:http';
import { ServeMux, eventStream } from '../../core/index.ts';
import { shutdown } from '../../core/node/index.ts';
import { listen } from '../support/node-http.ts';

const later = <T>(value: T, ms: number) => new Promise<T>((r) => setTimeout(() => r(value), ms));

/** The child's entry: the scenario through mux.fetch, then through serve(); one line each. */
export async function renderRejects(): Promise<string> {
  const out: string[] = [];
  for (const via of ['fetch', 'serve'] as const) {
    const logged: string[] = [];
    const mux = new ServeMux({ logger: { error: (message) => void logged.push(message), warn: () => {} } });
    const results: Promise<boolean>[] = [];
    let cleanups = 0;
    mux.handleFunc('GET /events', (req) =>
      eventStream(
        req,
        (s) => {
          results.push(s.send('first'), s.send(later('never', 20)), s.send(Promise.reject(new Error('render failed'))));
          results.push(s.send('after'));
          return () => void cleanups++;
        },
        { heartbeat: 0 },
      ),
    );
    const { text, end } = via === 'fetch' ? await viaFetch(mux) : await viaServe(mux);
    const sent = await Promise.all(results);
    await later(null, 50); // a rejection nobody handled has ended the process by now
    out.push(
      `${via}: ${JSON.stringify(text)} ${end} [${sent.join(', ')}] cleanups=${cleanups} logged=${logged.length}`,
    );
  }
  return out.join('\n') + '\n';
}

async function viaFetch(mux: ServeMux): Promise<{ text: string; end: string }> {
  const reader = (await mux.fetch(new Request('http://x/events'))).body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  try {
    for (let r = await reader.read(); !r.done; r = await reader.read())
      text += decoder.decode(r.value, { stream: true });
    return { text, end: 'ended' };
  } catch (err) {
    return { text, end: `failed (${(err as Error).message})` };
  }
}

async function viaServe(mux: ServeMux): Promise<{ text: string; end: string }> {
  const server = await listen(mux);
  try {
    const port = (server.address() as { port: number }).port;
    return await new Promise((resolve) => {
      let text = '';
      const req = httpGet({ host: '127.0.0.1', port, path: '/events' }, (res) => {
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => resolve({ text, end: 'ended' }));
        res.on('aborted', () => resolve({ text, end: 'cut' }));
        res.on('error', () => resolve({ text, end: 'cut' }));
      });
      req.on('error', () => resolve({ text, end: 'cut' }));
    });
  } finally {
    await shutdown(server, 500);
  }
}
