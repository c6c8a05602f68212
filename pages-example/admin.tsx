// The admin section: a page group with a dashboard, a user page with a
// refreshable activity partial, and a middleware for the whole group.

import { HttpError, id, idTarget, urlFor, type Middleware, type PageRequest, route } from 'pagetree';
import { Layout } from './layout.tsx';
import type { Activity, User } from './store.ts';
import type { Deps } from './tasks.tsx';

/** Admin pages are personal: never cached, marked for the browser. */
const privatePages: Middleware = (next) => async (req) => {
  const res = await next(req);
  res.headers.set('cache-control', 'private, no-store');
  res.headers.set('x-robots-tag', 'noindex');
  return res;
};

export class Dashboard {
  readonly #deps: Deps;

  constructor(deps: Deps) {
    this.#deps = deps;
  }

  props() {
    return { users: this.#deps.store.users() };
  }

  page(props: { users: User[] }) {
    return (
      <Layout title="Admin">
        <table class="users">
          <thead>
            <tr>
              <th>Name</th>
              <th>Role</th>
            </tr>
          </thead>
          <tbody>
            {props.users.map((u) => (
              <tr>
                <td>
                  <a href={urlFor(UserPage, { userId: u.id })} safe>
                    {u.name}
                  </a>
                </td>
                <td safe>{u.role}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </Layout>
    );
  }
}

export class UserPage {
  readonly #deps: Deps;

  constructor(deps: Deps) {
    this.#deps = deps;
  }

  props(req: PageRequest) {
    const user = this.#deps.store.user(Number(req.pathValue('userId')));
    if (!user) throw new HttpError(404, 'No such user');
    return { user, activity: this.#deps.store.activity(user.id) };
  }

  page(props: { user: User; activity: Activity[] }) {
    return (
      <Layout title={props.user.name}>
        <dl>
          <dt>Email</dt>
          <dd safe>{props.user.email}</dd>
          <dt>Role</dt>
          <dd safe>{props.user.role}</dd>
        </dl>
        <h2>Activity</h2>
        <button hx-get={urlFor(UserPage, { userId: props.user.id })} hx-target={idTarget(this.activityList)}>
          Refresh
        </button>
        <div id={id(this.activityList)}>{this.activityList(props)}</div>
        <p>
          <a href={urlFor(Admin)}>All users</a>
        </p>
      </Layout>
    );
  }

  activityList(props: { activity: Activity[] }) {
    if (props.activity.length === 0) return <p class="empty">No activity yet.</p>;
    return (
      <ul>
        {props.activity.map((a) => (
          <li>
            <time safe>{a.at}</time> <span safe>{a.what}</span>
          </li>
        ))}
      </ul>
    );
  }
}

/** /admin: a page group. GET /admin redirects to /admin/ (Go's ServeMux does it). */
export class Admin {
  index = route('/{$} Dashboard', Dashboard);
  user = route('/users/{userId} User', UserPage);

  middlewares() {
    return [privatePages];
  }
}
