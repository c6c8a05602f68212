// Comments on a task, live: the edit page of a task shows its comments and a form, connected to this socket route.
//
//   GET /tasks/{taskId}/comments, Upgrade: websocket  → props: the task (404 when there is none) → open: the list
//   a message {text, headers}                          → parseMessage (zod): invalid → the fields with the error;
//                                                        valid → stored, published on the broker, the fields emptied
//   the broker's message "comments:<taskId>"           → every instance renders the list once → every open page
//
// htmx 4's hx-ws swaps the main HTML (the list, <ul id="comments">) where the connect element's hx-target points;
// htmx 2's ws extension puts it in place of the element with its id. The form's fields go as a region, so the
// <form hx-ws:send> stays and keeps sending (docs/websockets.md, "Answers and regions").

import { urlFor, type PageRequest } from 'pagetree';
import { getOr404, parsePath } from 'pagetree/forms';
import { SocketHub, parseMessage, type Broker, type Socket, type SocketPage } from 'pagetree/live';
import { z } from 'zod';
import type { Comment, Store } from './store.ts';

/** What the comment form accepts. */
export const CommentInput = z.object({
  text: z
    .string()
    .trim()
    .min(1, 'Write a comment first')
    .max(500, 'A comment has at most 500 characters')
    // Postgres text cannot hold NUL: refused here, so that both stores take the same comments.
    .regex(/^[^\0]*$/, 'A comment cannot contain a NUL character'),
});

const CommentPath = z.object({ taskId: z.coerce.number().int().positive() });
const noTask = 'No such task';

/** The ids the socket's messages swap: the list (the main HTML) and the form's fields (a region). */
const listId = 'comments';
const fieldsId = 'comment-fields';

/** What the socket route is built with: the store, and the broker that carries a new comment to every instance. */
export interface CommentDeps {
  store: Store;
  broker: Broker;
}

interface Props {
  taskId: number;
}

/** The broker topic of a task's comments. */
function topicOf(taskId: number): string {
  return `comments:${taskId}`;
}

/** A task's comments, oldest first; the main HTML of every message. */
export function CommentList(props: { comments: Comment[] }): JSX.Element {
  return (
    <ul id={listId} class="comments" aria-live="polite">
      {props.comments.map((c) => (
        <li safe>{c.text}</li>
      ))}
    </ul>
  );
}

/** The comment form's fields: the text (what was typed, escaped) and its error. */
function CommentFields(props: { value: string; error?: string }): JSX.Element {
  const error = props.error;
  return (
    <div class="field">
      <input
        name="text"
        value={props.value}
        placeholder="Add a comment"
        aria-label="Comment"
        maxlength="500"
        autocomplete="off"
        aria-invalid={error === undefined ? undefined : 'true'}
        aria-describedby={error === undefined ? undefined : 'comment-error'}
      />
      {error !== undefined && (
        <p class="field-error" id="comment-error" safe>
          {error}
        </p>
      )}
    </div>
  );
}

/**
 * The comments panel of a task's page: the list and the form, connected to the task's socket with the extension of
 * the htmx the pages load ("4": hx-ws, "2": the ws extension).
 * @example <CommentsPanel taskId={7} comments={[]} htmxVersion="4" />
 * // → <section … hx-ws:connect="/tasks/7/comments">…</section>
 */
export function CommentsPanel(props: { taskId: number; comments: Comment[]; htmxVersion: string }): JSX.Element {
  const url = urlFor(TaskComments, { taskId: props.taskId });
  const htmx2 = props.htmxVersion === '2';
  return (
    <section
      class="comments-panel"
      aria-label="Comments"
      hx-ws:connect={htmx2 ? undefined : url}
      hx-target={htmx2 ? undefined : `#${listId}`}
      hx-swap={htmx2 ? undefined : 'outerHTML'}
      hx-ext={htmx2 ? 'ws' : undefined}
      ws-connect={htmx2 ? url : undefined}
    >
      <h2>Comments</h2>
      <CommentList comments={props.comments} />
      <form id="comment-form" hx-ws:send={htmx2 ? undefined : ''} ws-send={htmx2 ? '' : undefined}>
        <div id={fieldsId}>
          <CommentFields value="" />
        </div>
        <button type="submit">Send</button>
      </form>
    </section>
  );
}

/** /tasks/{taskId}/comments: the task's comments as a WebSocket (a plain GET is 426). */
export class TaskComments implements SocketPage<Props> {
  readonly #deps: CommentDeps;
  // One hub per task shown: a comment is rendered once per instance and the same bytes go to each of its sockets.
  // A hub follows its topic only while a socket follows it, so an idle one costs an entry in this map.
  readonly #hubs = new Map<number, SocketHub>();

  constructor(deps: CommentDeps) {
    this.#deps = deps;
  }

  async props(req: PageRequest): Promise<Props> {
    const { taskId } = parsePath(req, CommentPath, noTask);
    await getOr404(this.#deps.store.task(taskId), noTask); // no socket for a task that does not exist
    return { taskId };
  }

  // Each (re)connect draws the whole list: the page may have missed comments meanwhile.
  open(socket: Socket, props: Props): Promise<boolean> {
    socket.subscribe(this.#hub(props.taskId));
    return socket.send(this.#list(props.taskId));
  }

  async message(socket: Socket, data: string, props: Props): Promise<boolean> {
    const form = await parseMessage(data, CommentInput);
    if (!form.ok) {
      const fields = <CommentFields value={form.values.text ?? ''} error={form.errors.text?.[0] ?? 'Not a comment'} />;
      return socket.send('', { regions: [[fieldsId, fields]] }); // the list stays as it is
    }
    if (!(await this.#deps.store.addComment(props.taskId, form.data.text))) {
      // Deleted meanwhile (another tab): said in the form, as the edit form says it with a 404.
      return socket.send('', { regions: [[fieldsId, <CommentFields value={form.data.text} error={noTask} />]] });
    }
    // Every instance's hub hears it and sends the list to its sockets, this one included.
    await this.#deps.broker.publish(topicOf(props.taskId));
    return socket.send('', { regions: [[fieldsId, <CommentFields value="" />]] });
  }

  #hub(taskId: number): SocketHub {
    let hub = this.#hubs.get(taskId);
    if (!hub) {
      hub = new SocketHub({ broker: this.#deps.broker, topic: topicOf(taskId), render: () => this.#list(taskId) });
      this.#hubs.set(taskId, hub);
    }
    return hub;
  }

  async #list(taskId: number): Promise<string> {
    return <CommentList comments={await this.#deps.store.comments(taskId)} />;
  }
}
