// An app as `npm start` runs one: serve() on PORT (or on BUSY_PORT_OPTION, given as serve's port option), for
// busy-port.test.ts, which starts it on a port another server holds.

import { serve } from '../../core/node/index.ts';

const option = process.env.BUSY_PORT_OPTION;
serve(() => new Response('hello'), option === undefined ? {} : { port: Number(option) });
