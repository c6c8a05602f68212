// The page layout: the document, its head (the fingerprinted CSS and htmx) and the navigation.

import type { Children } from '@kitajs/html';
import { staticUrl, urlFor } from 'pagetree';
import { HtmxConfig } from 'pagetree/htmx';
import { HomePage } from './pages/home.tsx';

export function Layout(props: { title: string; children?: Children }): JSX.Element {
  return (
    <>
      {'<!doctype html>'}
      <html lang="en">
        <head>
          <meta charset="utf-8" />
          <meta name="viewport" content="width=device-width, initial-scale=1" />
          <title safe>{props.title}</title>
          <link rel="stylesheet" href={staticUrl('style.css')} />
          {/* htmx 2 swaps no 4xx answer by default; a form with its errors comes with 422 and must be swapped. */}
          <HtmxConfig />
          <script src={staticUrl('htmx.min.js')}></script>
        </head>
        <body>
          <header>
            <a href={urlFor(HomePage)}>__NAME__</a>
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
