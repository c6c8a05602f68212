// The page every server in the adapter benchmark answers for GET /hello/{name}:
// about 2 KB of HTML with the name in it, built per request by the same code.

/** The content-type every server sends, byte for byte. */
export const contentType = 'text/html; charset=utf-8';

/** The path the load generator requests, and the name in it. */
export const helloPath = '/hello/world';

const escapes: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&#34;', "'": '&#39;' };

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => escapes[c]!);
}

const items = [
  ['Pages as classes', 'Each page is a class with a route, a loader and a view.'],
  ['htmx partials', 'The same handler answers a full page or just the fragment htmx asks for.'],
  ['Go patterns', 'Routes use the pattern syntax and precedence of Go’s http.ServeMux.'],
  ['Plain HTML', 'Server-rendered markup, no client bundle needed to read the page.'],
  ['Web standards', 'Handlers take a Request and return a Response, on node:http or anywhere.'],
]
  .map(([title, text]) => `      <li class="feature"><h3>${title}</h3><p>${text}</p></li>\n`)
  .join('');

/** The HTML for one name (escaped), about 2 KB. */
export function helloPage(name: string): string {
  const who = escapeHtml(name);
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>Hello, ${who} · pagetree</title>
    <link rel="stylesheet" href="/static/site.css">
    <script src="/static/htmx.min.js" defer></script>
  </head>
  <body hx-boost="true">
    <header class="site-header">
      <a class="logo" href="/">pagetree</a>
      <nav>
        <a href="/docs">Docs</a>
        <a href="/examples">Examples</a>
        <a href="/blog">Blog</a>
        <a href="https://example.com/pagetree">Source</a>
      </nav>
    </header>
    <main id="content">
      <h1>Hello, ${who}!</h1>
      <p class="lead">This page is about two kilobytes of HTML, like a small real page: a header, a list, a form and a footer.</p>
      <ul class="features">
${items}      </ul>
      <form hx-post="/hello/${who}/greet" hx-target="#greeting" hx-swap="innerHTML">
        <label for="message">Say something back to ${who}</label>
        <input id="message" name="message" type="text" maxlength="140" placeholder="Nice to meet you">
        <button type="submit">Send</button>
      </form>
      <div id="greeting" aria-live="polite"></div>
    </main>
    <footer class="site-footer">
      <p>Made with pagetree. HTML first, JavaScript when it helps.</p>
    </footer>
  </body>
</html>
`;
}
