// The tasks: the home page lists them and adds one (GET and POST /), each task has its edit page (GET and POST
// /tasks/{taskId}, DELETE deletes it; its comments are live: comments.tsx), and a toggle. Forms are validated with a
// zod schema through parseForm: an invalid submission answers 422 with the form again, errors beside the field; htmx
// gets only the form.

import {
  HttpError,
  id,
  idTarget,
  redirect,
  renderComponent,
  setStatus,
  urlFor,
  type PageRequest,
  type RenderTarget,
} from 'pagetree';
import { flash, takeFlash } from 'pagetree/auth';
import { formState, getOr404, parseForm, parsePath, type FieldName, type FormState } from 'pagetree/forms';
import { alsoRender, htmxDetails, hxTrigger } from 'pagetree/htmx';
import { z } from 'zod';
import { Layout } from './layout.tsx';
import { CommentsPanel } from './comments.tsx';
import type { Comment, Store, Task } from './store.ts';

export interface Deps {
  store: Store;
  /** "4" (default) or "2": which htmx the pages load, so the comments panel uses its WebSocket extension. */
  htmxVersion?: string;
}

/** What the add and edit forms accept. */
export const TaskInput = z.object({
  title: z
    .string()
    .trim()
    .min(1, 'A task needs a title')
    .max(200, 'A title has at most 200 characters')
    // Postgres text cannot hold NUL (a 500 there): refused here, so that both stores take the same titles.
    .regex(/^[^\0]*$/, 'A title cannot contain a NUL character'),
});

type TaskForm = FormState<FieldName<typeof TaskInput>>;

/** A task's path: its id, a positive whole number; any other value names no task (a 404). */
const TaskPath = z.object({ taskId: z.coerce.number().int().positive() });
const noTask = 'No such task';

interface ListProps {
  q: string;
  tasks: Task[];
  open: number;
  form: TaskForm;
  /** The flash message of the last edit ("Task updated"), shown once. */
  notice?: string;
}

/** The home page: all tasks, an add form, and a search that re-renders only the list. */
export class TasksPage {
  readonly #deps: Deps;

  constructor(deps: Deps) {
    this.#deps = deps;
  }

  async props(req: PageRequest, target: RenderTarget): Promise<ListProps> {
    const q = new URL(req.url).searchParams.get('q') ?? '';
    // Only the whole page shows the notice, so a search (the list alone) leaves the flash for it.
    const notice = target.partial ? undefined : await takeFlash();
    return { ...(await this.#list(q)), form: formState(TaskInput), notice };
  }

  /** POST /: adds a task. htmx gets the add form again (empty, or with the error) and the list and count beside. */
  async post(req: PageRequest): Promise<ListProps | Response> {
    const form = await parseForm(req, TaskInput);
    if (!form.ok) {
      setStatus(422);
      return { ...(await this.#list('')), form };
    }
    req.signal.throwIfAborted(); // timed out meanwhile: the client was told 503, so write nothing
    await this.#deps.store.addTask(form.data.title);
    if (!htmxDetails().isHtmx) return redirect(urlFor(TasksPage)); // no JavaScript: back to the list (303)
    const list = await this.#list('');
    alsoRender(this.taskList, this.taskList(list));
    alsoRender(this.openCount, this.openCount(list));
    hxTrigger('task-added', { title: form.data.title }); // static/app.js shows the notice
    return { ...list, form: formState(TaskInput) };
  }

  page(props: ListProps) {
    return (
      <Layout title="Tasks">
        <p class="open-count" id={id(this.openCount)} aria-live="polite">
          {this.openCount(props)}
        </p>
        <p class="notice" id="notice" role="status" safe>
          {props.notice}
        </p>
        <div id={id(this.addForm)}>{this.addForm(props)}</div>
        <input
          type="search"
          name="q"
          value={props.q}
          placeholder="Search tasks"
          aria-label="Search tasks"
          hx-get={urlFor(TasksPage)}
          hx-target={idTarget(this.taskList)}
          hx-trigger="input changed delay:300ms, search"
          hx-push-url="true"
        />
        <section id={id(this.taskList)}>{this.taskList(props)}</section>
      </Layout>
    );
  }

  addForm(props: { form: TaskForm }) {
    const action = urlFor(TasksPage);
    return (
      <form class="add" action={action} method="post" hx-post={action} hx-target={idTarget(this.addForm)}>
        <TitleField form={props.form} id="new-title" label="New task" placeholder="What needs doing?" />
        <button type="submit">Add</button>
      </form>
    );
  }

  taskList(props: { tasks: Task[] }) {
    return <TaskList tasks={props.tasks} />;
  }

  openCount(props: { open: number }) {
    return <OpenCount open={props.open} />;
  }

  async #list(q: string): Promise<Omit<ListProps, 'form'>> {
    const [tasks, open] = await Promise.all([this.#deps.store.tasks(q), openTasks(this.#deps.store)]);
    return { q, tasks, open };
  }
}

/**
 * The title input and its message: marked invalid and described by the message, focused when wrong (htmx focuses
 * `autofocus` in what it swaps in, the browser on a full load). The value is what was typed, escaped.
 */
function TitleField(props: { form: TaskForm; id: string; label: string; placeholder?: string }): JSX.Element {
  const error = props.form.errors.title?.[0];
  const errorId = `${props.id}-error`;
  return (
    <div class="field">
      <input
        id={props.id}
        name="title"
        value={props.form.values.title}
        placeholder={props.placeholder}
        aria-label={props.label}
        required
        maxlength="200"
        aria-invalid={error === undefined ? undefined : 'true'}
        aria-describedby={error === undefined ? undefined : errorId}
        autofocus={error !== undefined}
      />
      {error !== undefined && (
        <p class="field-error" id={errorId} safe>
          {error}
        </p>
      )}
    </div>
  );
}

/** "3 open tasks": the count in the page's header, updated by every action. */
export function OpenCount(props: { open: number }): JSX.Element {
  const n = props.open; // a number: nothing to escape
  return n === 1 ? '1 open task' : `${n} open tasks`;
}

async function openTasks(store: Store): Promise<number> {
  return (await store.counts()).open;
}

/** The list of tasks, with toggle, edit and delete; toggle and delete answer with the list again. */
export function TaskList(props: { tasks: Task[] }): JSX.Element {
  if (props.tasks.length === 0) return <p class="empty">No tasks.</p>;
  const target = idTarget(TasksPage.prototype.taskList);
  return (
    <ul class="tasks">
      {props.tasks.map((t) => (
        <li class={t.done ? 'done' : undefined}>
          <button
            class="toggle"
            hx-post={urlFor(ToggleTask, { taskId: t.id })}
            hx-target={target}
            aria-label={t.done ? 'Mark as not done' : 'Mark as done'}
          >
            {t.done ? '☑' : '☐'}
          </button>
          <span class="title" safe>
            {t.title}
          </span>
          <a class="edit" href={urlFor(TaskPage, { taskId: t.id })} aria-label="Edit">
            ✎
          </a>
          <button class="delete" hx-delete={urlFor(TaskPage, { taskId: t.id })} hx-target={target} aria-label="Delete">
            ✕
          </button>
        </li>
      ))}
    </ul>
  );
}

// htmx gets the fresh list and, beside it, the open-task count; a plain form post goes back to the home page (303).
async function answer(store: Store) {
  if (!htmxDetails().isHtmx) return redirect(urlFor(TasksPage));
  const [tasks, open] = await Promise.all([store.tasks(), openTasks(store)]);
  alsoRender(TasksPage.prototype.openCount, <OpenCount open={open} />);
  return renderComponent(<TaskList tasks={tasks} />);
}

interface EditProps {
  task: Task;
  form: TaskForm;
  /** Shown below the form, then kept current over the comments socket. */
  comments: Comment[];
}

/** /tasks/{taskId}: a task's edit form (GET), saving it (POST), deleting it (DELETE). */
export class TaskPage {
  readonly #deps: Deps;

  constructor(deps: Deps) {
    this.#deps = deps;
  }

  async props(req: PageRequest): Promise<EditProps> {
    const task = await this.#task(req);
    const comments = await this.#deps.store.comments(task.id);
    return { task, form: formState(TaskInput, { title: task.title }), comments };
  }

  /** Saves the title: "Task updated" on the list (HX-Location for htmx, 303 without), or 422 with the form. */
  async post(req: PageRequest): Promise<EditProps | Response> {
    const task = await this.#task(req);
    const form = await parseForm(req, TaskInput);
    if (!form.ok) {
      setStatus(422);
      return { task, form, comments: await this.#deps.store.comments(task.id) };
    }
    req.signal.throwIfAborted();
    // Deleted meanwhile (another tab): a 404, as if it had been gone before the form was read.
    if (!(await this.#deps.store.renameTask(task.id, form.data.title))) throw new HttpError(404, noTask);
    await flash('Task updated');
    return redirect(urlFor(TasksPage));
  }

  async delete(req: PageRequest) {
    const { taskId } = parsePath(req, TaskPath, noTask);
    if (!(await this.#deps.store.deleteTask(taskId))) throw new HttpError(404, noTask);
    return answer(this.#deps.store);
  }

  page(props: EditProps) {
    return (
      <Layout title="Edit task">
        <div id={id(this.editForm)}>{this.editForm(props)}</div>
        <CommentsPanel taskId={props.task.id} comments={props.comments} htmxVersion={this.#deps.htmxVersion ?? '4'} />
        <p>
          <a href={urlFor(TasksPage)}>Back to the tasks</a>
        </p>
      </Layout>
    );
  }

  editForm(props: EditProps) {
    const action = urlFor(TaskPage, { taskId: props.task.id });
    return (
      <form class="edit" action={action} method="post" hx-post={action} hx-target={idTarget(this.editForm)}>
        <TitleField form={props.form} id="edit-title" label="Title" />
        <button type="submit">Save</button>
      </form>
    );
  }

  async #task(req: PageRequest): Promise<Task> {
    return getOr404(this.#deps.store.task(parsePath(req, TaskPath, noTask).taskId), noTask);
  }
}

/** POST /tasks/{taskId}/toggle: marks a task done or not done. */
export class ToggleTask {
  readonly #deps: Deps;

  constructor(deps: Deps) {
    this.#deps = deps;
  }

  async props(req: PageRequest) {
    const { taskId } = parsePath(req, TaskPath, noTask);
    if (!(await this.#deps.store.toggleTask(taskId))) throw new HttpError(404, noTask);
    return answer(this.#deps.store);
  }
}
