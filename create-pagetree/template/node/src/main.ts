// Serves the app with node:http on PORT (default 3000). `npm run dev` runs it with --dev: pagetree-dev restarts it
// when a file changes (code, static/, .env) and the open tab reloads.

import { existsSync } from 'node:fs';
import { serve } from 'pagetree/node';
import { createApp } from './app.tsx';

if (existsSync('.env')) process.loadEnvFile('.env');
const { mux } = createApp({ secret: process.env.PAGETREE_SECRET, dev: process.argv.includes('--dev') });
serve(mux);
