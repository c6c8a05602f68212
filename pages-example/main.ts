// `npm start`: serves the example app on PORT (default 3000).
// DATABASE_PATH picks the SQLite file; HTMX_VERSION=2 serves htmx 2 instead of htmx 4; PAGETREE_SECRET (32+
// characters) signs the flash cookie, so a message survives a restart.
// `npm run dev` adds --dev: tsx restarts the server on every change (code, static/) and the open tab reloads.
// A `.env` file in the working directory, if there is one, sets what the environment does not, at each start.

import { existsSync } from 'node:fs';
import { serve } from 'pagetree/node';
import { createApp } from './app.tsx';

if (existsSync('.env')) process.loadEnvFile('.env');

const { mux } = createApp({
  databasePath: process.env.DATABASE_PATH,
  htmxVersion: process.env.HTMX_VERSION,
  secret: process.env.PAGETREE_SECRET,
  liveReload: process.argv.includes('--dev'),
});
serve(mux);
