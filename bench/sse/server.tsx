// The server of bench/sse: a page whose props answer eventStream, subscribed to a publisher, served by `serve`.
// Started by run.ts (node --expose-gc). Besides the stream, two plain routes for the parent:
//
//   GET /live          text/event-stream: one event per publish, "<p class="count">N</p>"
//   POST /publish      sends event N to every subscriber → "N"
//   GET /subscribers   how many streams are subscribed now → "0"

import { ServeMux, eventStream, mount, route, type PageRequest } from '../../core/index.ts';
import { serve } from '../../core/node/index.ts';
import { listening, serveParent } from '../lib/child.ts';

serveParent('bench/sse/server.tsx');

const listeners = new Set<() => void>();
let published = 0;

function Count(props: { n: number }): JSX.Element {
  return <p class="count">{props.n}</p>;
}

class Live {
  props(req: PageRequest) {
    return eventStream(req, (stream) => {
      const listener = () => void stream.send(<Count n={published} />, { event: 'count', id: String(published) });
      listeners.add(listener);
      return () => listeners.delete(listener);
    });
  }
}
class App {
  live = route('GET /live', Live);
}

const mux = new ServeMux();
mount(mux, App, '/', '', { timeout: 10_000 }); // as the example: a page timeout the streams must outlive
mux.handleFunc('POST /publish', () => {
  published++;
  for (const l of listeners) l();
  return new Response(String(published));
});
mux.handleFunc('GET /subscribers', () => new Response(String(listeners.size)));

const server = serve(mux, {
  port: 0,
  hostname: '127.0.0.1',
  handleSignals: false,
  onListen: () => listening((server.address() as { port: number }).port),
});
