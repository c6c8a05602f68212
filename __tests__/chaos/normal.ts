// A route's normal request (its row's `check`), sent over a socket and through mux.fetch in the server's process:
// what every route must still answer before and after the load.
//
//   await checkNormal(child, route, 'after the load')
//   → ['after the load, POST /form through serve(): 400 "Bad Request: …", want 303']   or [] when both answer right

import { request } from 'node:http';
import type { ChaosRoute } from './app.tsx';
import type { Child } from './child.ts';
import type { Checked } from './server.ts';

/** The route's normal request over a socket: its status (or what went wrong) and the start of its body. */
export function normal(port: number, r: ChaosRoute): Promise<Checked> {
  const c = r.check;
  return new Promise((resolve) => {
    const headers = c.type ? { 'content-type': c.type } : {};
    const req = request({ host: '127.0.0.1', port, method: c.method, path: c.path, headers }, (res) => {
      if (c.open) return (res.destroy(), resolve({ status: res.statusCode!, body: '' }));
      let body = '';
      res.setEncoding('latin1');
      res.on('data', (chunk: string) => (body = (body + chunk).slice(0, 300)));
      res.on('end', () => resolve({ status: res.statusCode!, body }));
      res.on('error', (err) => resolve({ status: `the answer broke off: ${err.message}`, body }));
    });
    req.setTimeout(10_000, () => req.destroy(new Error('no answer in 10 s')));
    req.on('error', (err) => resolve({ status: `no answer: ${err.message}`, body: '' }));
    req.end(c.body);
  });
}

/**
 * Both transports' answers to the route's normal request, as problems; `when` says when, for the report.
 * @example await checkNormal(child, route, 'at the end') // → []
 */
export async function checkNormal(c: Child, r: ChaosRoute, when: string): Promise<string[]> {
  const raw = await normal(c.port, r);
  const fetched = await c.ask({ ask: 'check', route: r.name }).then(
    (m): Checked => ('checked' in m ? m.checked : { status: JSON.stringify(m), body: '' }),
    (err: Error): Checked => ({ status: err.message, body: '' }),
  );
  const problems: string[] = [];
  for (const [how, got] of [
    ['serve()', raw],
    ['mux.fetch', fetched],
  ] as const) {
    if (got.status === r.check.status) continue;
    const said = got.body ? ` ${JSON.stringify(got.body)}` : '';
    problems.push(
      `${when}, ${r.check.method} ${r.check.path} through ${how}: ${got.status}${said}, want ${r.check.status}`,
    );
  }
  return problems;
}
