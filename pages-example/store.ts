// The example's data: what the pages ask of a store, and the two that keep it.
//
//   SqliteStore (store-sqlite.ts)     a file under pages-example/data/ (DATABASE_PATH), or ":memory:" in tests
//   PostgresStore (store-postgres.ts) DATABASE_URL=postgres://…: what several instances of the app share
//
// Both answer alike, row for row: the same search (LIKE, ASCII case folded, `%` and `_` literal), the same order,
// the same `at` text. Every read and write is a Promise, so that a page is written once for either; SqliteStore
// does its work before the Promise is made (better-sqlite3 is synchronous).

/** A task on the list. */
export interface Task {
  id: number;
  title: string;
  done: boolean;
}

/** A comment on a task (the task's edit page shows them live, over a WebSocket: comments.tsx). */
export interface Comment {
  id: number;
  text: string;
}

/** A user of the admin section's list. */
export interface User {
  id: number;
  name: string;
  email: string;
  role: string;
}

/** How many tasks there are, open and done. */
export interface TaskCounts {
  open: number;
  done: number;
  total: number;
}

/** One thing a user did, `at` in UTC as `YYYY-MM-DD HH:MM:SS` (SQLite's `datetime('now')`). */
export interface Activity {
  id: number;
  what: string;
  at: string;
}

/**
 * Tasks and users, wherever they are kept. Listeners hear of every change to the tasks made through this store
 * (this process); changes made by another instance reach them only through a broker.
 * @example const store: Store = new SqliteStore(':memory:'); await store.addTask('Milk'); await store.counts() // → { open: 1, done: 0, total: 1 }
 */
export interface Store {
  /** Tasks whose title contains `query` (all when empty; ASCII letters in any case), oldest first. */
  tasks(query?: string): Promise<Task[]>;
  task(id: number): Promise<Task | undefined>;
  addTask(title: string): Promise<void>;
  /** Flips a task; false when there is no such task. */
  toggleTask(id: number): Promise<boolean>;
  /** Gives a task a new title; false when there is no such task. */
  renameTask(id: number, title: string): Promise<boolean>;
  /** Deletes a task; false when there is no such task. */
  deleteTask(id: number): Promise<boolean>;
  /** A task's comments, oldest first. */
  comments(taskId: number): Promise<Comment[]>;
  /** Adds a comment to a task; false when there is no such task. Deleting a task deletes its comments. */
  addComment(taskId: number, text: string): Promise<boolean>;
  /** Open, done and all tasks. */
  counts(): Promise<TaskCounts>;
  /** Every user, by id. */
  users(): Promise<User[]>;
  user(id: number): Promise<User | undefined>;
  /** A user's last 20 things done, newest first. */
  activity(userId: number): Promise<Activity[]>;
  recordActivity(userId: number, what: string): Promise<void>;
  /**
   * Calls `listener` after every change to the tasks; returns the function that stops it. Synchronous, and called
   * once the change is stored, so that a listener reading the store sees it.
   * @example const unsubscribe = store.subscribe(() => void store.counts().then(console.log));
   */
  subscribe(listener: () => void): () => void;
  /** How many listeners there are: one per open dashboard. */
  readonly subscribers: number;
  close(): Promise<void>;
}

/** The users and activity a new database starts with: [id, name, email, role], then [userId, what]. */
export const seedUsers: readonly [number, string, string, string][] = [
  [1, 'Ada Lovelace', 'ada@example.com', 'admin'],
  [2, 'Grace Hopper', 'grace@example.com', 'editor'],
  [3, 'Alan Turing', 'alan@example.com', 'viewer'],
];
export const seedActivity: readonly [number, string][] = [
  [1, 'wrote the first program'],
  [2, 'found the first bug'],
];

/**
 * `query` as the inside of a LIKE pattern with `\` as the escape character: its `%`, `_` and `\` match themselves.
 * @example likeText('50%_off') // → "50\\%\\_off"
 */
export function likeText(query: string): string {
  return query.replace(/[\\%_]/g, (c) => '\\' + c);
}

/**
 * The listeners of a store: both stores keep theirs in one of these.
 * @example const changes = new Listeners(); changes.subscribe(() => console.log('changed')); changes.notify();
 */
export class Listeners {
  readonly #listeners = new Set<() => void>();

  subscribe(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => void this.#listeners.delete(listener);
  }

  get size(): number {
    return this.#listeners.size;
  }

  notify(): void {
    for (const listener of this.#listeners) listener();
  }
}
