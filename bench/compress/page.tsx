// The page every server of bench/compress answers for GET /tasks: the example's task list (a layout, an add form,
// a search box, 18 tasks with their buttons), built per request by the same @kitajs/html components, with a token
// made per request (a CSRF field in the form and htmx's hx-headers), as a real app's page has: no two bodies are
// alike, so no server can keep an answer compressed once.
//
//   GET /tasks                                         → the whole page (~7.4 KB)
//   GET /tasks, HX-Request: true, HX-Target: task-list → the list alone (~6.1 KB)
//
// pagetree renders it through a page class (server.tsx); the others call `fullPage`/`partialPage` below.

import { randomBytes } from 'node:crypto';
import type { Children } from '@kitajs/html';

/** The content-type every server sends. */
export const contentType = 'text/html; charset=utf-8';

/** The htmx Vary every server sends with its page (a page and its partial share the URL). */
export const htmxVary = 'HX-Request, HX-Target, HX-Request-Type';

/** The id of the list's container: pagetree's generated id for TaskPage.taskList mounted at App.tasks. */
export const LIST_ID = 'tasks-task-list';

/** The path the load generator requests. */
export const path = '/tasks';

/** The headers htmx 2 sends when it asks for the list alone. */
export const partialHeaders: Readonly<Record<string, string>> = { 'hx-request': 'true', 'hx-target': LIST_ID };

export interface Task {
  id: number;
  title: string;
  done: boolean;
}

/** What the page shows: the tasks, and the request's token. */
export interface Tasks {
  tasks: Task[];
  token: string;
}

const chores = ['buy milk & bread', 'call the plumber', 'file the "taxes"', 'water the plants', "fix Ann's bike"];
const tasks: Task[] = Array.from({ length: 18 }, (_, i) => ({
  id: i + 1,
  title: `Task ${i + 1}: ${chores[i % chores.length]}`,
  done: i % 3 === 0,
}));

/**
 * The props every server builds per request: the tasks and a fresh 24-character token (18 random bytes).
 * @example loadTasks().token // → "q3Vd0xR1…" (another every call)
 */
export function loadTasks(): Tasks {
  return { tasks, token: randomBytes(18).toString('base64url') };
}

/** The token's place in a body, for the check: every body is the same once its tokens are masked. */
export const tokenPattern = /(name="_csrf" value="|&#34;X-CSRF-Token&#34;:&#34;)[A-Za-z0-9_-]{24}/g;

function Layout(props: { title: string; children?: Children }): JSX.Element {
  return (
    <>
      {'<!doctype html>'}
      <html lang="en">
        <head>
          <meta charset="utf-8" />
          <meta name="viewport" content="width=device-width, initial-scale=1" />
          <title safe>{props.title}</title>
          <link rel="icon" href="/static/icon.4e8ecf07.svg" type="image/svg+xml" />
          <link rel="stylesheet" href="/static/app.89af5298.css" />
          <script src="/static/htmx.min.a0abb04f.js"></script>
          <script src="/static/app.252ebe36.js" defer></script>
        </head>
        <body>
          <header>
            <nav hx-boost="true">
              <strong>pagetree</strong>
              <a href="/tasks" aria-current="page">
                Tasks
              </a>
              <a href="/admin/">Admin</a>
            </nav>
          </header>
          <main>{props.children}</main>
        </body>
      </html>
    </>
  );
}

/** The list: what a partial request gets. Its buttons post with the token (htmx's hx-headers). */
export function TaskList(props: Tasks): JSX.Element {
  const target = '#' + LIST_ID;
  return (
    <ul class="tasks" hx-headers={JSON.stringify({ 'X-CSRF-Token': props.token })}>
      {props.tasks.map((t) => (
        <li class={t.done ? 'done' : undefined}>
          <button
            class="toggle"
            hx-post={`/tasks/${t.id}/toggle`}
            hx-target={target}
            aria-label={t.done ? 'Mark as open' : 'Mark as done'}
          >
            {t.done ? '☑' : '☐'}
          </button>
          <span class="title" safe>
            {t.title}
          </span>
          <a class="edit" href={`/tasks/${t.id}`} aria-label="Edit">
            ✎
          </a>
          <button class="delete" hx-delete={`/tasks/${t.id}`} hx-target={target} aria-label="Delete">
            ✕
          </button>
        </li>
      ))}
    </ul>
  );
}

/** The page around the list; `children` is the list, inside the element `containerId`. */
export function TasksView(props: Tasks & { containerId: string; children?: Children }): JSX.Element {
  const open = props.tasks.filter((t) => !t.done).length;
  return (
    <Layout title="Tasks · pagetree">
      <h1>Tasks</h1>
      <p class="open-count" aria-live="polite" safe>
        {`${open} open tasks`}
      </p>
      <form class="add" action="/tasks" method="post" hx-post="/tasks" hx-target={'#' + props.containerId}>
        <input type="hidden" name="_csrf" value={props.token} />
        <input name="title" placeholder="What needs doing?" aria-label="New task" required maxlength="200" />
        <button type="submit">Add</button>
      </form>
      <input
        type="search"
        name="q"
        placeholder="Search tasks"
        aria-label="Search tasks"
        hx-get="/tasks"
        hx-target={'#' + props.containerId}
        hx-trigger="input changed delay:300ms, search"
      />
      <section id={props.containerId}>{props.children}</section>
    </Layout>
  );
}

function text(html: JSX.Element): string {
  if (typeof html !== 'string') throw new TypeError('bench/compress: a component rendered a Promise');
  return html;
}

/** The whole page, as the servers other than pagetree render it. */
export function fullPage(t: Tasks): string {
  return text(
    <TasksView {...t} containerId={LIST_ID}>
      <TaskList {...t} />
    </TasksView>,
  );
}

/** The list alone, as the servers other than pagetree render it. */
export function partialPage(t: Tasks): string {
  return text(<TaskList {...t} />);
}

/** Whether a request asks for the list alone (the headers as node:http gives them, lower-case). */
export function wantsPartial(hxRequest: string | null | undefined, hxTarget: string | null | undefined): boolean {
  return hxRequest === 'true' && hxTarget === LIST_ID;
}
