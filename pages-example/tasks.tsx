// The task list: the home page, its search partial, and the actions that
// answer htmx with just the list, the open-task count alongside, and a
// "task-added" event for the notice.

import {
  alsoRender,
  htmxDetails,
  HttpError,
  hxTrigger,
  id,
  idTarget,
  redirect,
  renderComponent,
  urlFor,
  type PageRequest,
} from 'pagetree';
import { Layout } from './layout.tsx';
import type { Store, Task } from './store.ts';

export interface Deps {
  store: Store;
}

/** The home page: all tasks, an add form, and a search that re-renders only the list. */
export class TasksPage {
  readonly #deps: Deps;

  constructor(deps: Deps) {
    this.#deps = deps;
  }

  props(req: PageRequest) {
    const q = new URL(req.url).searchParams.get('q') ?? '';
    return { q, tasks: this.#deps.store.tasks(q), open: openTasks(this.#deps.store) };
  }

  page(props: { q: string; tasks: Task[]; open: number }) {
    return (
      <Layout title="Tasks">
        <p class="open-count" id={id(this.openCount)} aria-live="polite">
          {this.openCount(props)}
        </p>
        <p class="notice" id="notice" role="status"></p>
        <form
          class="add"
          action={urlFor(AddTask)}
          method="post"
          hx-post={urlFor(AddTask)}
          hx-target={idTarget(this.taskList)}
          data-reset
        >
          <input name="title" placeholder="What needs doing?" required maxlength="200" aria-label="New task" />
          <button type="submit">Add</button>
        </form>
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

  taskList(props: { tasks: Task[] }) {
    return <TaskList tasks={props.tasks} />;
  }

  openCount(props: { open: number }) {
    return <OpenCount open={props.open} />;
  }
}

/** "3 open tasks": the count in the page's header, updated by every action. */
export function OpenCount(props: { open: number }): JSX.Element {
  const n = props.open; // a number: nothing to escape
  return n === 1 ? '1 open task' : `${n} open tasks`;
}

function openTasks(store: Store): number {
  return store.tasks().filter((t) => !t.done).length;
}

/** The list of tasks, with toggle and delete buttons that answer with the list again. */
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
          <button
            class="delete"
            hx-delete={urlFor(DeleteTask, { taskId: t.id })}
            hx-target={target}
            aria-label="Delete"
          >
            ✕
          </button>
        </li>
      ))}
    </ul>
  );
}

// htmx gets the fresh list and, beside it, the open-task count; a plain form post goes back to the home page (303).
function answer(store: Store) {
  if (!htmxDetails().isHtmx) return redirect(urlFor(TasksPage));
  alsoRender(TasksPage.prototype.openCount, <OpenCount open={openTasks(store)} />);
  return renderComponent(<TaskList tasks={store.tasks()} />);
}

function taskId(req: PageRequest): number {
  const n = Number(req.pathValue('taskId'));
  if (!Number.isSafeInteger(n) || n <= 0) throw new HttpError(404, 'No such task');
  return n;
}

/** POST /tasks: adds a task. */
export class AddTask {
  readonly #deps: Deps;

  constructor(deps: Deps) {
    this.#deps = deps;
  }

  async props(req: PageRequest) {
    const title = String((await req.formData()).get('title') ?? '').trim();
    if (title === '' || title.length > 200) throw new HttpError(422, 'A task needs a title of 1 to 200 characters');
    req.signal.throwIfAborted(); // timed out meanwhile: the client was told 503, so write nothing
    this.#deps.store.addTask(title);
    hxTrigger('task-added', { title }); // static/app.js shows the notice
    return answer(this.#deps.store);
  }
}

/** POST /tasks/{taskId}/toggle: marks a task done or not done. */
export class ToggleTask {
  readonly #deps: Deps;

  constructor(deps: Deps) {
    this.#deps = deps;
  }

  props(req: PageRequest) {
    if (!this.#deps.store.toggleTask(taskId(req))) throw new HttpError(404, 'No such task');
    return answer(this.#deps.store);
  }
}

/** DELETE /tasks/{taskId}: deletes a task. */
export class DeleteTask {
  readonly #deps: Deps;

  constructor(deps: Deps) {
    this.#deps = deps;
  }

  props(req: PageRequest) {
    if (!this.#deps.store.deleteTask(taskId(req))) throw new HttpError(404, 'No such task');
    return answer(this.#deps.store);
  }
}
