// Serves the example app: `npm start` (PORT overrides 3000).

import { ServeMux } from '../core';
import { serve } from '../core/node';

const mux = new ServeMux();
mux.handleFunc(
  'GET /{$}',
  () =>
    new Response(
      '<!doctype html><title>pagetree</title><h1>pagetree</h1><p>The example app is served by a ServeMux.</p>',
      {
        headers: { 'content-type': 'text/html; charset=utf-8' },
      },
    ),
);
serve(mux);
