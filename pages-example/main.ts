// `npm start`: serves the example app on PORT (default 3000).
// DATABASE_PATH picks the SQLite file; HTMX_VERSION=2 serves htmx 2 instead of htmx 4; PAGETREE_SECRET (32+
// characters) signs the flash cookie and seals sessions, so a message and a login survive a restart.
// ADMIN_EMAIL and ADMIN_PASSWORD are the admin section's account; without them a password is made and printed.
// `npm run dev` adds --dev: tsx restarts the server on every change (code, static/) and the open tab reloads.
// A `.env` file in the working directory, if there is one, sets what the environment does not, at each start.

import { existsSync } from 'node:fs';
import { serve } from 'pagetree/node';
import { createApp } from './app.tsx';

if (existsSync('.env')) process.loadEnvFile('.env');

const { ADMIN_EMAIL, ADMIN_PASSWORD } = process.env;
const { mux, admin } = createApp({
  databasePath: process.env.DATABASE_PATH,
  htmxVersion: process.env.HTMX_VERSION,
  secret: process.env.PAGETREE_SECRET,
  liveReload: process.argv.includes('--dev'),
  admin: ADMIN_EMAIL && ADMIN_PASSWORD ? { email: ADMIN_EMAIL, password: ADMIN_PASSWORD } : undefined,
});
if (!ADMIN_PASSWORD) {
  console.log(`admin: log in at /login as ${admin.email} with the password ${admin.password} (made for this start;`);
  console.log('       set ADMIN_EMAIL and ADMIN_PASSWORD to choose them)');
}
serve(mux);
