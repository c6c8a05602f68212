// The app as a Cloudflare Worker: `npm run dev` serves it locally (wrangler dev), `npm run deploy` publishes it.
// nodejs_compat puts the worker's variables in process.env: PAGETREE_SECRET from .env locally, and from
// `npx wrangler secret put PAGETREE_SECRET` in production.

import { createApp } from './app.tsx';

const { mux } = createApp({ secret: process.env.PAGETREE_SECRET, dev: process.env.PAGETREE_DEV === '1' });

export default { fetch: mux.fetch };
