// The app of bun-serve.test.ts, run by the real bun binary: `bun __tests__/bun/server.tsx` (Bun reads the JSX
// settings and pagetree/jsx-runtime's path from tsconfig.json). It prints the URL pagetree/bun's serve listens on.

import { ServeMux, clientAddress, mount, route, type PageRequest } from '../../core/index.ts';
import { serve } from '../../core/bun/index.ts';

class ItemPage {
  props(req: PageRequest) {
    return { name: req.pathValue('name') };
  }
  page({ name }: { name: string }) {
    return <p safe>item {name}</p>;
  }
}

class SlowPage {
  async props() {
    await new Promise((resolve) => setTimeout(resolve, 5));
    return { when: 'later' };
  }
  page({ when }: { when: string }) {
    return <p safe>{when}</p>;
  }
}

class App {
  item = route('GET /items/{name}', ItemPage);
  slow = route('GET /slow', SlowPage);
}

const mux = new ServeMux({
  logger: { error: (message) => console.error(`logged: ${message}`), warn: (message) => console.error(message) },
});
mount(mux, App, '/', '', { compress: false });
mux.handleFunc('GET /who', (req) => new Response(clientAddress(req)));
mux.handleFunc('GET /throws', () => {
  throw new Error('boom');
});

const server = serve(mux, { hostname: '127.0.0.1', port: 0 });
console.log(`listening on ${server.url}`);
