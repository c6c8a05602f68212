// The example's data in SQLite (better-sqlite3): a file under pages-example/data/ by default (DATABASE_PATH
// overrides), ":memory:" for tests. Statements are prepared once. better-sqlite3 is synchronous: each method does
// its work at once and returns a settled Promise, as the Store interface asks, so listeners run before it returns.

import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import {
  Listeners,
  likeText,
  seedActivity,
  seedUsers,
  type Activity,
  type Comment,
  type Store,
  type Task,
  type TaskCounts,
  type User,
} from './store.ts';

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
  CREATE TABLE IF NOT EXISTS comments (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    task_id INTEGER NOT NULL REFERENCES tasks(id) ON DELETE CASCADE,
    text TEXT NOT NULL
  );
`;

// Every statement, prepared once.
function prepare(db: Database.Database) {
  return {
    tasks: db.prepare("SELECT id, title, done FROM tasks WHERE title LIKE '%' || ? || '%' ESCAPE '\\' ORDER BY id"),
    task: db.prepare('SELECT id, title, done FROM tasks WHERE id = ?'),
    addTask: db.prepare('INSERT INTO tasks (title) VALUES (?)'),
    renameTask: db.prepare('UPDATE tasks SET title = ? WHERE id = ?'),
    toggleTask: db.prepare('UPDATE tasks SET done = 1 - done WHERE id = ?'),
    deleteTask: db.prepare('DELETE FROM tasks WHERE id = ?'),
    comments: db.prepare('SELECT id, text FROM comments WHERE task_id = ? ORDER BY id'),
    // Inserted only when the task exists: one statement, so a task deleted meanwhile gets no orphan comment.
    addComment: db.prepare('INSERT INTO comments (task_id, text) SELECT id, ? FROM tasks WHERE id = ?'),
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
type TaskRow = { id: number; title: string; done: number };

/**
 * Tasks and users, persisted in SQLite; listeners hear of every change to the tasks.
 * @example const store = new SqliteStore(':memory:'); await store.addTask('Milk'); await store.tasks() // → [{ id: 1, title: 'Milk', done: false }]
 */
export class SqliteStore implements Store {
  readonly #db: Database.Database;
  readonly #q: Statements;
  readonly #listeners = new Listeners();

  constructor(path: string) {
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
    this.#db = new Database(path);
    this.#db.pragma('journal_mode = WAL');
    // Off by default in SQLite: on, deleting a task deletes its comments (ON DELETE CASCADE), as in Postgres.
    this.#db.pragma('foreign_keys = ON');
    this.#db.exec(schema);
    this.#q = prepare(this.#db);
    if ((this.#q.countUsers.get() as { n: number }).n === 0) this.#seed();
  }

  #seed(): void {
    this.#db.transaction(() => {
      for (const u of seedUsers) this.#q.addUser.run(...u);
      for (const a of seedActivity) this.#q.addActivity.run(...a);
    })();
  }

  async tasks(query = ''): Promise<Task[]> {
    return (this.#q.tasks.all(likeText(query)) as TaskRow[]).map((t) => ({ ...t, done: t.done === 1 }));
  }

  async task(id: number): Promise<Task | undefined> {
    const t = this.#q.task.get(id) as TaskRow | undefined;
    return t && { ...t, done: t.done === 1 };
  }

  async addTask(title: string): Promise<void> {
    this.#q.addTask.run(title);
    this.#listeners.notify();
  }

  async toggleTask(id: number): Promise<boolean> {
    return this.#changed(this.#q.toggleTask.run(id).changes);
  }

  async renameTask(id: number, title: string): Promise<boolean> {
    return this.#changed(this.#q.renameTask.run(title, id).changes);
  }

  async deleteTask(id: number): Promise<boolean> {
    return this.#changed(this.#q.deleteTask.run(id).changes);
  }

  async comments(taskId: number): Promise<Comment[]> {
    return this.#q.comments.all(taskId) as Comment[];
  }

  async addComment(taskId: number, text: string): Promise<boolean> {
    return this.#q.addComment.run(text, taskId).changes === 1;
  }

  async counts(): Promise<TaskCounts> {
    const { total, done } = this.#q.countTasks.get() as { total: number; done: number };
    return { open: total - done, done, total };
  }

  subscribe(listener: () => void): () => void {
    return this.#listeners.subscribe(listener);
  }

  get subscribers(): number {
    return this.#listeners.size;
  }

  // An update or delete of one task by id: tells the listeners when it found the task.
  #changed(rows: number): boolean {
    if (rows !== 1) return false;
    this.#listeners.notify();
    return true;
  }

  async users(): Promise<User[]> {
    return this.#q.users.all() as User[];
  }

  async user(id: number): Promise<User | undefined> {
    return this.#q.user.get(id) as User | undefined;
  }

  async activity(userId: number): Promise<Activity[]> {
    return this.#q.activity.all(userId) as Activity[];
  }

  async recordActivity(userId: number, what: string): Promise<void> {
    this.#q.addActivity.run(userId, what);
  }

  async close(): Promise<void> {
    this.#db.close();
  }
}
