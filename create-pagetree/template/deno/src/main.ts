// Serves the app with Deno.serve on PORT (default 3000), .env loaded by --env-file. `npm run dev` runs it with
// --dev: deno --watch restarts it when its code, static/ or .env changes, and the open tab reloads.

import { createApp } from './app.tsx';

const { mux } = createApp({ secret: Deno.env.get('PAGETREE_SECRET'), dev: Deno.args.includes('--dev') });
Deno.serve({ port: Number(Deno.env.get('PORT') ?? 3000) }, mux.fetch);
