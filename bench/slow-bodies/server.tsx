// The server of bench/slow-bodies: a page that reads a form, served by `serve` with the request timeout
// given as the kind (ms). Started by run.ts.

import { ServeMux, mount, route, type PageRequest } from '../../core/index.ts';
import { serve } from '../../core/node/index.ts';
import { listening, serveParent } from '../lib/child.ts';

serveParent('bench/slow-bodies/server.tsx');

class Upload {
  async props(req: PageRequest) {
    return { size: String((await req.formData()).get('data') ?? '').length };
  }
  page(props: { size: number }) {
    return <p>{props.size}</p>;
  }
}
class App {
  upload = route('POST /upload', Upload);
}

const mux = new ServeMux();
mount(mux, App);
const requestTimeout = Number(process.argv[2]);
const server = serve(mux, {
  port: 0,
  hostname: '127.0.0.1',
  requestTimeout,
  headersTimeout: Math.min(15_000, requestTimeout),
  onListen: () => listening((server.address() as { port: number }).port),
});
