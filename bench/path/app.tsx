// The app bench/path measures: one page class with page() and one partial (the list, rendered alone for an htmx
// request that targets it), mounted at '/' with mount's default options; the same page as bench/bundle's worker.
// The partial calls `onPartial` first, so that run.ts can look at the stack the request arrived on.
//
//   GET /                                                           → the whole page
//   GET /, HX-Request: true, HX-Target: ul#home-items,
//          HX-Request-Type: partial (htmx 4)                         → the <li>s alone

import { id, mount, route, ServeMux } from '../../core/index.ts';

const items = ['Milk', 'Bread', 'Eggs'];

/** What the partial calls on each request before it renders (run.ts sets it; by default nothing). */
export const probe: { onPartial: () => void } = { onPartial: () => {} };

class HomePage {
  page() {
    return (
      <>
        {'<!doctype html>'}
        <html lang="en">
          <head>
            <title>Shopping</title>
          </head>
          <body>
            <h1>Shopping</h1>
            <ul id={id(this.items)}>{this.items()}</ul>
          </body>
        </html>
      </>
    );
  }

  items() {
    probe.onPartial();
    return (
      <>
        {items.map((item) => (
          <li safe>{item}</li>
        ))}
      </>
    );
  }
}

class App {
  home = route('GET /{$} Home', HomePage);
}

/** The mux with the app mounted (default options), and the partial's element id. */
export function makeApp(): { mux: ServeMux; partialId: string } {
  const mux = new ServeMux();
  const tree = mount(mux, App, '/', 'Home');
  return { mux, partialId: tree.id(HomePage.prototype.items) };
}
