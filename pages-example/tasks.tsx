// The task list: the home page, its search partial, and the actions that
// answer htmx with just the list.

import { HttpError, id, idTarget, redirect, renderComponent, urlFor, type PageRequest } from 'pagetree';
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
    return { q, tasks: this.#deps.store.tasks(q) };
  }

  page(props: { q: string; tasks: Task[] }) {
    return (
      <Layout title="Tasks">
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

// htmx gets the fresh list; a plain form post goes back to the home page (303).
function answer(req: PageRequest, store: Store) {
  return req.headers.get('hx-request') === 'true'
    ? renderComponent(<TaskList tasks={store.tasks()} />)
    : redirect(urlFor(TasksPage));
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
    return answer(req, this.#deps.store);
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
    return answer(req, this.#deps.store);
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
    return answer(req, this.#deps.store);
  }
}
