// Serves the app with Bun.serve on PORT (default 3000); Bun reads .env itself. `npm run dev` runs it with --dev:
// pagetree-dev restarts it (bun --watch) when its code, static/ or .env changes, and the open tab reloads.

import { createApp } from './app.tsx';

const { mux } = createApp({ secret: process.env.PAGETREE_SECRET, dev: process.argv.includes('--dev') });
const server = Bun.serve({ port: Number(process.env.PORT ?? 3000), fetch: mux.fetch });
console.log(`listening on ${server.url}`);
