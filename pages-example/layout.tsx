// The page layout: head, navigation built from urlFor, the active item from currentPage().

import type { Children } from '@kitajs/html';
import { currentPage, staticUrl, urlFor, type PageNode } from 'pagetree';
import { HtmxConfig } from 'pagetree/htmx';
import { Admin } from './admin.tsx';
import { TasksPage } from './tasks.tsx';

/** Whether the page being served is `page` or lies below it. */
function within(page: abstract new (...args: never[]) => object): boolean {
  for (let n: PageNode | null = currentPage(); n; n = n.parent) if (n.pageClass === page) return true;
  return false;
}

export function Layout(props: { title: string; children?: Children }): JSX.Element {
  const nav = [
    { label: 'Tasks', href: urlFor(TasksPage), active: within(TasksPage) },
    { label: 'Admin', href: urlFor(Admin), active: within(Admin) },
  ];
  return (
    <>
      {'<!doctype html>'}
      <html lang="en">
        <head>
          <meta charset="utf-8" />
          <meta name="viewport" content="width=device-width, initial-scale=1" />
          <title safe>{props.title} · pagetree</title>
          <link rel="icon" href={staticUrl('icon.svg')} type="image/svg+xml" />
          <link rel="stylesheet" href={staticUrl('app.css')} />
          {/* htmx 2 swaps no 4xx answer by default; 422 (a form with its errors) must be swapped. htmx 4 swaps
              every status and ignores this setting. */}
          <HtmxConfig />
          {/* Not deferred: htmx 4 loaded after parsing starts on a timer, which can run before a deferred
              extension has registered; loaded now, it waits for DOMContentLoaded, after the extension */}
          <script src={staticUrl('htmx.min.js')}></script>
          <script src={staticUrl('htmx-sse.js')} defer></script>
          <script src={staticUrl('htmx-ws.js')} defer></script>
          <script src={staticUrl('app.js')} defer></script>
        </head>
        <body>
          <header>
            {/* htmx 2 inherits hx-boost; htmx 4 only inherits the :inherited form */}
            <nav hx-boost="true" hx-boost:inherited="true">
              <strong>pagetree</strong>
              {nav.map((item) => (
                <a href={item.href} aria-current={item.active ? 'page' : undefined} safe>
                  {item.label}
                </a>
              ))}
            </nav>
          </header>
          <main>
            <h1 safe>{props.title}</h1>
            {props.children}
          </main>
        </body>
      </html>
    </>
  );
}
