/** @jsxImportSource hono/jsx */
// The same one-page worker on Hono 4, as a Hono app writes it: one route, hono/jsx, and the list alone when htmx
// asks for it (the id pagetree generates for HomePage.items, written by hand).

import { Hono } from 'hono';

const items = ['Milk', 'Bread', 'Eggs'];

function Items() {
  // hono/jsx escapes children. The XSS scanner reads every .tsx as kitajs JSX; a name that starts with "safe" says so.
  return (
    <>
      {items.map((safeItem) => (
        <li>{safeItem}</li>
      ))}
    </>
  );
}

const app = new Hono();
app.get('/', (c) => {
  if (c.req.header('hx-request') === 'true' && c.req.header('hx-target') === 'home-items') {
    return c.html(<Items />);
  }
  const page = (
    <html lang="en">
      <head>
        <title>Shopping</title>
      </head>
      <body>
        <h1>Shopping</h1>
        <ul id="home-items">
          <Items />
        </ul>
      </body>
    </html>
  );
  return c.html('<!doctype html>' + page);
});

export default { fetch: (req: Request) => app.fetch(req) };
