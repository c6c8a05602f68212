// The static files: static/ and htmx from its package, read once at start, served with fingerprinted names
// (staticUrl('style.css') → /static/style.1a2b3c4d.css, cached for a year).

import { staticFiles } from 'pagetree/static';

export const assets = staticFiles('static', { files: { 'htmx.min.js': 'node_modules/htmx.org/dist/htmx.min.js' } });
