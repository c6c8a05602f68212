// `npm start`: serves the example app on PORT (default 3000).

import { serve } from 'pagetree/node';
import { createApp } from './app';

const { mux } = createApp({ databasePath: process.env.DATABASE_PATH });
serve(mux);
