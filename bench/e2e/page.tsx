// The page every server of the e2e benchmark answers for GET /lists/{listId}:
// a small layout, a title, and a list of 20 items (an escaped text and a
// link each), built per request by the same @kitajs/html components.
//
//   GET /lists/groceries                                  → the whole page (~2.6 KB)
//   GET /lists/groceries, HX-Request: true,
//       HX-Target: list-items                             → only the <ul> (~1.9 KB)
//
// pagetree renders it through a page class (bench/e2e/app.tsx); the others
// call `fullPage`/`partialPage` below, with pagetree's generated id as a constant.

import type { Children } from '@kitajs/html';
import type { LoadCase } from '../lib/server-bench.ts';

/** The content-type every server sends, byte for byte. */
export const contentType = 'text/html; charset=utf-8';

/** The Vary every server sends (pagetree's pipeline sends it on every page). */
export const vary = 'HX-Request, HX-Target, HX-Request-Type';

/** The element id pagetree generates for `ListPage.items` mounted at `App.list` (its server checks it). */
export const LIST_ID = 'list-items';

/** The path the load generator requests. */
export const listPath = '/lists/groceries';

/** The headers htmx 2 sends when it asks for the list alone. */
export const partialHeaders: Readonly<Record<string, string>> = { 'hx-request': 'true', 'hx-target': LIST_ID };

export interface Item {
  id: number;
  text: string;
}

/** What the route's props are: the list's id (from the URL, so escaped), title and items. */
export interface List {
  listId: string;
  title: string;
  items: Item[];
}

const marks = ['<b>', '&', '"quoted"', "it's", '<script>'];

/** The props every server builds per request: 20 items whose text needs escaping. */
export function loadList(listId: string): List {
  const items: Item[] = [];
  for (let i = 1; i <= 20; i++) items.push({ id: i, text: `${listId} item ${i} ${marks[i % marks.length]}` });
  return { listId, title: `List ${listId}`, items };
}

function Layout(props: { title: string; children?: Children }): JSX.Element {
  return (
    <>
      {'<!doctype html>'}
      <html lang="en">
        <head>
          <meta charset="utf-8" />
          <meta name="viewport" content="width=device-width, initial-scale=1" />
          <title safe>{props.title}</title>
          <link rel="stylesheet" href="/static/app.css" />
          <script src="/static/htmx.min.js" defer></script>
        </head>
        <body>
          <header>
            <nav hx-boost="true">
              <a href="/">Home</a>
              <a href="/lists">Lists</a>
            </nav>
          </header>
          <main>{props.children}</main>
        </body>
      </html>
    </>
  );
}

/** The list fragment: what a partial request gets. */
export function ItemList(props: { list: List }): JSX.Element {
  const base = `/lists/${encodeURIComponent(props.list.listId)}/items/`;
  return (
    <ul class="items">
      {props.list.items.map((item) => (
        <li>
          <a href={base + item.id} safe>
            {item.text}
          </a>
        </li>
      ))}
    </ul>
  );
}

/** The page around the list; `children` is the list, inside the element `containerId`. */
export function ListView(props: { list: List; containerId: string; children?: Children }): JSX.Element {
  return (
    <Layout title={props.list.title}>
      <h1 safe>{props.list.title}</h1>
      <button hx-get={`/lists/${encodeURIComponent(props.list.listId)}`} hx-target={'#' + props.containerId}>
        Refresh
      </button>
      <section id={props.containerId}>{props.children}</section>
    </Layout>
  );
}

function text(html: JSX.Element): string {
  if (typeof html !== 'string') throw new TypeError('bench/e2e: a component rendered a Promise');
  return html;
}

/** The whole page, as the servers other than pagetree render it. */
export function fullPage(list: List): string {
  return text(
    <ListView list={list} containerId={LIST_ID}>
      <ItemList list={list} />
    </ListView>,
  );
}

/** The list alone, as the servers other than pagetree render it. */
export function partialPage(list: List): string {
  return text(<ItemList list={list} />);
}

/** Whether a request asks for the list alone (the headers as node:http gives them, lower-case). */
export function wantsPartial(hxRequest: string | null | undefined, hxTarget: string | null | undefined): boolean {
  return hxRequest === 'true' && hxTarget === LIST_ID;
}

/** A request the benches send, with the bytes every server must answer it with. */
export interface Variant extends LoadCase {
  want: Buffer;
}

/** The two requests of bench/e2e and bench/runtimes: the full page, and its list as an htmx partial. */
export function loadVariants(): Variant[] {
  const list = loadList('groceries');
  return [
    { name: 'full', path: listPath, headers: {}, want: Buffer.from(fullPage(list)) },
    {
      name: `partial (HX-Target: ${LIST_ID})`,
      path: listPath,
      headers: { ...partialHeaders },
      want: Buffer.from(partialPage(list)),
    },
  ];
}
