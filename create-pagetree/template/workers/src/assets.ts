// The static files: a worker has no directory to read, so `npm run assets` embeds static/ and htmx into
// static-files.ts (pagetree-embed), served with fingerprinted names (staticUrl('style.css') →
// /static/style.1a2b3c4d.css, cached for a year). Run it again when a file changes; dev, start, deploy and test do.

import { staticFiles } from 'pagetree/static';
import files from './static-files.ts';

export const assets = staticFiles(files);
