// The server of bench/forms: `serve` with a page that validates a posted form with parseForm, and a page to GET
// while it works. Started by run.ts.

import { z } from 'zod';
import { ServeMux, mount, parseForm, route, setStatus, type PageRequest } from '../../core/index.ts';
import { serve } from '../../core/node/index.ts';
import { listening, serveParent } from '../lib/child.ts';

serveParent('bench/forms/server.tsx');

const Schema = z.object({ title: z.string().min(1) });

class Submit {
  async post(req: PageRequest) {
    const form = await parseForm(req, Schema);
    if (!form.ok) setStatus(422);
    return { ok: form.ok };
  }
  page(props: { ok: boolean }) {
    return <p>{props.ok ? 'saved' : 'invalid'}</p>;
  }
}
class Ping {
  page() {
    return <p>pong</p>;
  }
}
class App {
  submit = route('/submit', Submit);
  ping = route('GET /ping', Ping);
}

const mux = new ServeMux();
mount(mux, App);
const server = serve(mux, {
  port: 0,
  hostname: '127.0.0.1',
  handleSignals: false,
  onListen: () => listening((server.address() as { port: number }).port),
});
