// The app: its routes, and the function that mounts them on a mux. main.ts serves it; the tests call createApp
// for a fresh app each.

import { mount, route, ServeMux, type Tree } from 'pagetree';
import { crossOriginProtection } from 'pagetree/auth';
import { liveReload } from 'pagetree/live';
import { assets } from './assets.ts';
import { HomePage } from './pages/home.tsx';
import { Guestbook } from './store.ts';

// Makes urlFor(Page, params) check its params against the routes below at compile time.
declare module 'pagetree' {
  interface Register {
    root: App;
  }
}

export class App {
  home = route('/{$} Guestbook', HomePage);
  static = route('GET /static/{path...}', assets);
}

export interface AppOptions {
  /** Signs the flash cookie: 32+ characters, from the environment (PAGETREE_SECRET). */
  secret?: string;
  /** Development: reload the open tab on a restart, and make a secret per start when none is set. */
  dev?: boolean;
}

export function createApp(options: AppOptions = {}): { mux: ServeMux; tree: Tree<App>; guestbook: Guestbook } {
  const guestbook = new Guestbook();
  const mux = new ServeMux();
  const tree = mount(mux, App, '/', 'Guestbook', {
    deps: { guestbook },
    secret: options.secret,
    dev: options.dev,
    // Unsafe methods (the form's POST) must come from this site's own pages.
    middlewares: options.dev ? [crossOriginProtection(), liveReload(mux)] : [crossOriginProtection()],
  });
  return { mux, tree, guestbook };
}
