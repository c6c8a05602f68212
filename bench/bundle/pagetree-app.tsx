// The one-page worker bench/bundle measures for pagetree: a page class with page() and one partial (the list,
// rendered alone for an htmx request that targets it), mounted on a ServeMux, served by mux.fetch as a Workers
// module. It imports pagetree by its package name, as an app does; run.ts resolves that through package.json's
// "exports" (dist/), so the bench follows core's files wherever they move.
//
//   GET /                                           → the whole page
//   GET /, HX-Request: true, HX-Target: home-items  → the <li>s alone

import { id, mount, route, ServeMux } from 'pagetree';

const items = ['Milk', 'Bread', 'Eggs'];

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

const mux = new ServeMux();
mount(mux, App, '/', 'Home');

export default { fetch: (req: Request) => mux.fetch(req) };
