// The soak benchmark's request mix: what one connection sends, in order, again
// and again, and what each answer must be.
//
//   GET /                      full page            GET /admin/users/2 + HX-Target   activity partial
//   GET /?q=soak + HX-Target   task list partial    DELETE /tasks/{id} + HX          the list, without it
//   POST / + HX (form)         the add form, and    GET /static/app.css              identity
//                              the list with it
//   POST /tasks/{id}/toggle    the list, it done    GET /static/app.css + br, gzip   brotli
//   GET /admin/                dashboard            GET /static/app.<hash>.css       fingerprinted
//   GET /admin/users/1         user page            GET /admin/users/999, /static/nope.css   404 (intended)
//
// Each pass creates a task with a unique title, finds its id in the list the
// POST answers, toggles it and deletes it, so the database stays the same size.

import type autocannon from 'autocannon';

/** What a pass of one connection remembers: the task it created. */
export interface PassContext {
  title?: string;
  taskId?: string;
}

/** One request of the mix. */
export interface Step {
  /** Row label. */
  name: string;
  method: string;
  /** A fixed path, or one built from what the pass remembers. */
  path: string | ((ctx: PassContext) => string);
  headers: Record<string, string>;
  body?: (ctx: PassContext) => string;
  /** The only status this step may get. */
  want: number;
  /** Whether the answer is what this step asks for (beyond its status); may record state in ctx. */
  check: (body: string, headers: Record<string, string | string[]>, ctx: PassContext) => boolean;
}

/** Counts for one step over a run. */
export interface Tally {
  count: number;
  statuses: Map<number, number>;
  /** Answers with the right status whose body or headers were wrong. */
  wrong: number;
}

/** The ids and URL the mix needs from the running app. */
export interface MixTargets {
  taskList: string;
  addForm: string;
  activityList: string;
  /** The stylesheet's fingerprinted URL, as the home page links it. */
  cssUrl: string;
  /** The admin's session cookie (`name=value`): the admin section requires a login. */
  admin: string;
}

let titles = 0;

const isFullPage = (body: string) => body.startsWith('<!doctype html>') && body.trimEnd().endsWith('</html>');
const isFragment = (body: string) => !body.includes('<html') && !body.includes('<!doctype');

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

// The id of the task titled `title` in a rendered task list.
function findTaskId(html: string, title: string): string | undefined {
  const re = new RegExp(
    `hx-post="/tasks/(\\d+)/toggle"[^>]*>[^<]*</button><span class="title">${escapeRegExp(title)}</span>`,
  );
  return re.exec(html)?.[1];
}

/**
 * The steps, in the order each connection sends them.
 * @example buildMix({ taskList: 'tasks-task-list', addForm: 'tasks-add-form', activityList: 'admin-user-activity-list', cssUrl, admin })
 */
export function buildMix(t: MixTargets): Step[] {
  const hx = (target: string) => ({ 'hx-request': 'true', 'hx-target': target });
  const admin = { cookie: t.admin };
  // What a browser adds to htmx's POST and DELETE: the app's cross-origin protection lets them through.
  const action = { ...hx(t.taskList), 'sec-fetch-site': 'same-origin' };
  // The add form targets itself; the list and the count come beside it.
  const form = { ...action, 'hx-target': t.addForm, 'content-type': 'application/x-www-form-urlencoded' };
  return [
    { name: 'page /', method: 'GET', path: '/', headers: {}, want: 200, check: isFullPage },
    {
      name: 'partial /?q=soak (task list)',
      method: 'GET',
      path: '/?q=soak',
      headers: hx(t.taskList),
      want: 200,
      check: (b) => isFragment(b) && (b.startsWith('<ul class="tasks">') || b.startsWith('<p class="empty">')),
    },
    {
      name: 'POST / (add a task)',
      method: 'POST',
      path: '/',
      headers: form,
      body: (ctx) => {
        ctx.title = `soak task ${++titles}`;
        return new URLSearchParams({ title: ctx.title }).toString();
      },
      want: 200,
      check: (b, _h, ctx) => {
        ctx.taskId = findTaskId(b, ctx.title ?? '');
        return isFragment(b) && ctx.taskId !== undefined;
      },
    },
    {
      name: 'POST /tasks/{id}/toggle',
      method: 'POST',
      path: (ctx) => `/tasks/${ctx.taskId ?? 0}/toggle`,
      headers: action,
      want: 200,
      check: (b, _h, ctx) =>
        b.includes(`<li class="done"><button class="toggle" hx-post="/tasks/${ctx.taskId}/toggle"`),
    },
    { name: 'page /admin/', method: 'GET', path: '/admin/', headers: admin, want: 200, check: isFullPage },
    {
      name: 'page /admin/users/1',
      method: 'GET',
      path: '/admin/users/1',
      headers: admin,
      want: 200,
      check: (b) => isFullPage(b) && b.includes('Ada Lovelace'),
    },
    {
      name: 'partial /admin/users/2 (activity)',
      method: 'GET',
      path: '/admin/users/2',
      headers: { ...hx(t.activityList), ...admin },
      want: 200,
      check: (b) => isFragment(b) && b.includes('found the first bug'),
    },
    {
      name: 'DELETE /tasks/{id}',
      method: 'DELETE',
      path: (ctx) => `/tasks/${ctx.taskId ?? 0}`,
      headers: action,
      want: 200,
      check: (b, _h, ctx) => isFragment(b) && !b.includes(`/tasks/${ctx.taskId}/toggle`),
    },
    {
      name: 'static /static/app.css',
      method: 'GET',
      path: '/static/app.css',
      headers: {},
      want: 200,
      check: (b, h) => h['content-encoding'] === undefined && b.startsWith(':root'),
    },
    {
      name: 'static /static/app.css (br)',
      method: 'GET',
      path: '/static/app.css',
      headers: { 'accept-encoding': 'gzip, deflate, br' },
      want: 200,
      check: (_b, h) => h['content-encoding'] === 'br',
    },
    {
      name: 'static fingerprinted app.css',
      method: 'GET',
      path: t.cssUrl,
      headers: {},
      want: 200,
      check: (b, h) => String(h['cache-control']).includes('immutable') && b.startsWith(':root'),
    },
    {
      name: '404 /admin/users/999 (intended)',
      method: 'GET',
      path: '/admin/users/999',
      headers: admin,
      want: 404,
      check: (b) => isFullPage(b) && b.includes('No such user'),
    },
    {
      name: '404 /static/nope.css (intended)',
      method: 'GET',
      path: '/static/nope.css',
      headers: {},
      want: 404,
      check: (b) => b === '404 page not found\n',
    },
  ];
}

/** A fresh tally per step. */
export function newTallies(steps: readonly Step[]): Tally[] {
  return steps.map(() => ({ count: 0, statuses: new Map(), wrong: 0 }));
}

/** Records one answer to `step`; true when it is what the step wants. */
export function record(
  step: Step,
  tally: Tally,
  status: number,
  body: string,
  headers: Record<string, string | string[]>,
  ctx: PassContext,
): boolean {
  tally.count++;
  tally.statuses.set(status, (tally.statuses.get(status) ?? 0) + 1);
  const ok = status === step.want && step.check(body, headers, ctx);
  if (status === step.want && !ok) tally.wrong++;
  return ok;
}

/** The steps as autocannon's `requests`, each answer recorded in `tallies`. */
export function toRequests(steps: readonly Step[], tallies: Tally[]): autocannon.Request[] {
  return steps.map((step, i) => {
    const { path, body } = step;
    const request: autocannon.Request = {
      method: step.method,
      headers: step.headers,
      onResponse: (status, text, ctx, headers) => void record(step, tallies[i]!, status, text, headers, ctx),
    };
    // Only steps that depend on the pass are rebuilt per request.
    if (typeof path === 'string' && !body) return { ...request, path };
    return {
      ...request,
      setupRequest: (req, ctx) => ({
        ...req,
        path: typeof path === 'string' ? path : path(ctx),
        ...(body ? { body: body(ctx) } : {}),
      }),
    };
  });
}

/** The path of a step for this pass. */
export function pathOf(step: Step, ctx: PassContext): string {
  return typeof step.path === 'string' ? step.path : step.path(ctx);
}
