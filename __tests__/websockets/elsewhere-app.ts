// An app with a socket route, started by elsewhere.test.ts from a working directory outside the project (as
// `node /srv/app/dist/main.js` run by a process manager): it prints its URL, then serves.

import { mount, route, ServeMux } from '../../core/index.ts';
import type { Socket } from '../../core/live/index.ts';
import { serve } from '../../core/node/index.ts';

class Echo {
  open(socket: Socket) {
    return socket.send('<p id="hello">open</p>');
  }
  message(socket: Socket, data: string) {
    return socket.send(`<p id="hello">${data.length}</p>`);
  }
}

class App {
  echo = route('/echo', Echo);
}

const mux = new ServeMux();
mount(mux, App);
const server = serve(mux, {
  port: 0,
  hostname: '127.0.0.1',
  onListen: (url) => console.log(`listening on ${url}`),
});
process.on('SIGTERM', () => void server.shutdown());
