// Components written with typed-html (3.x), a string JSX library other than @kitajs/html.
// typed-html escapes nothing: these components escape what they are given themselves.

// eslint-disable-next-line @typescript-eslint/no-unused-vars -- the JSX factory (jsxFactory: elements.createElement)
import * as elements from 'typed-html';

function escape(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export interface Item {
  name: string;
}

export function itemList(items: Item[]): string {
  return (
    <ul class="items">
      {items.map((i) => (
        <li>{escape(i.name)}</li>
      ))}
    </ul>
  );
}

export function layout(title: string, body: string): string {
  return (
    <html>
      <body>
        <h1>{escape(title)}</h1>
        {body}
      </body>
    </html>
  );
}
