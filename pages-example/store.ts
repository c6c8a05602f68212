// The example's data: tasks and users in SQLite (better-sqlite3).
//
// A file under pages-example/data/ by default (DATABASE_PATH overrides),
// ":memory:" for tests. Statements are prepared once.

import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';

export interface Task {
  id: number;
  title: string;
  done: boolean;
}

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

export interface Activity {
  id: number;
  what: string;
  at: string;
}

const schema = `
  CREATE TABLE IF NOT EXISTS tasks (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    title TEXT NOT NULL,
    done INTEGER NOT NULL DEFAULT 0
  );
  CREATE TABLE IF NOT EXISTS users (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    email TEXT NOT NULL,
    role TEXT NOT NULL
  );
  CREATE TABLE IF NOT EXISTS activity (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id INTEGER NOT NULL REFERENCES users(id),
    what TEXT NOT NULL,
    at TEXT NOT NULL DEFAULT (datetime('now'))
  );
`;

const seedUsers: [number, string, string, string][] = [
  [1, 'Ada Lovelace', 'ada@example.com', 'admin'],
  [2, 'Grace Hopper', 'grace@example.com', 'editor'],
  [3, 'Alan Turing', 'alan@example.com', 'viewer'],
];

// Every statement, prepared once.
function prepare(db: Database.Database) {
  return {
    tasks: db.prepare("SELECT id, title, done FROM tasks WHERE title LIKE '%' || ? || '%' ESCAPE '\\' ORDER BY id"),
    task: db.prepare('SELECT id, title, done FROM tasks WHERE id = ?'),
    addTask: db.prepare('INSERT INTO tasks (title) VALUES (?)'),
    renameTask: db.prepare('UPDATE tasks SET title = ? WHERE id = ?'),
    toggleTask: db.prepare('UPDATE tasks SET done = 1 - done WHERE id = ?'),
    deleteTask: db.prepare('DELETE FROM tasks WHERE id = ?'),
    countTasks: db.prepare('SELECT count(*) AS total, coalesce(sum(done), 0) AS done FROM tasks'),
    countUsers: db.prepare('SELECT count(*) AS n FROM users'),
    users: db.prepare('SELECT id, name, email, role FROM users ORDER BY id'),
    user: db.prepare('SELECT id, name, email, role FROM users WHERE id = ?'),
    addUser: db.prepare('INSERT INTO users (id, name, email, role) VALUES (?, ?, ?, ?)'),
    activity: db.prepare('SELECT id, what, at FROM activity WHERE user_id = ? ORDER BY id DESC LIMIT 20'),
    addActivity: db.prepare('INSERT INTO activity (user_id, what) VALUES (?, ?)'),
  };
}

type Statements = ReturnType<typeof prepare>;

/** Tasks and users, persisted in SQLite; listeners hear of every change to the tasks. */
export class Store {
  readonly #db: Database.Database;
  readonly #q: Statements;
  readonly #listeners = new Set<() => void>();

  constructor(path: string) {
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
    this.#db = new Database(path);
    this.#db.pragma('journal_mode = WAL');
    this.#db.exec(schema);
    this.#q = prepare(this.#db);
    if ((this.#q.countUsers.get() as { n: number }).n === 0) this.#seed();
  }

  #seed(): void {
    this.#db.transaction(() => {
      for (const u of seedUsers) this.#q.addUser.run(...u);
      this.#q.addActivity.run(1, 'wrote the first program');
      this.#q.addActivity.run(2, 'found the first bug');
    })();
  }

  /** Tasks whose title contains `query` (all when empty), oldest first. */
  tasks(query = ''): Task[] {
    const like = query.replace(/[\\%_]/g, (c) => '\\' + c);
    return (this.#q.tasks.all(like) as { id: number; title: string; done: number }[]).map((t) => ({
      ...t,
      done: t.done === 1,
    }));
  }

  task(id: number): Task | undefined {
    const t = this.#q.task.get(id) as { id: number; title: string; done: number } | undefined;
    return t && { ...t, done: t.done === 1 };
  }

  addTask(title: string): void {
    this.#q.addTask.run(title);
    this.#changed();
  }

  /** Flips a task; false when there is no such task. */
  toggleTask(id: number): boolean {
    const found = this.#q.toggleTask.run(id).changes === 1;
    if (found) this.#changed();
    return found;
  }

  /** Gives a task a new title; false when there is no such task. */
  renameTask(id: number, title: string): boolean {
    const found = this.#q.renameTask.run(title, id).changes === 1;
    if (found) this.#changed();
    return found;
  }

  /** Deletes a task; false when there is no such task. */
  deleteTask(id: number): boolean {
    const found = this.#q.deleteTask.run(id).changes === 1;
    if (found) this.#changed();
    return found;
  }

  /** Open, done and all tasks. */
  counts(): TaskCounts {
    const { total, done } = this.#q.countTasks.get() as { total: number; done: number };
    return { open: total - done, done, total };
  }

  /**
   * Calls `listener` after every change to the tasks; returns the function that stops it.
   * @example const unsubscribe = store.subscribe(() => console.log(store.counts()));
   */
  subscribe(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => void this.#listeners.delete(listener);
  }

  /** How many listeners there are: one per open dashboard. */
  get subscribers(): number {
    return this.#listeners.size;
  }

  #changed(): void {
    for (const listener of this.#listeners) listener();
  }

  users(): User[] {
    return this.#q.users.all() as User[];
  }

  user(id: number): User | undefined {
    return this.#q.user.get(id) as User | undefined;
  }

  activity(userId: number): Activity[] {
    return this.#q.activity.all(userId) as Activity[];
  }

  recordActivity(userId: number, what: string): void {
    this.#q.addActivity.run(userId, what);
  }

  close(): void {
    this.#db.close();
  }
}
