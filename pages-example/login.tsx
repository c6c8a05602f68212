// Logging in to the admin section: GET /login shows the form, POST /login checks the e-mail address and password
// (hashed with scrypt at start, compared in constant time) and sends the visitor back to the page they wanted
// (`next`, of this site only); POST /logout ends the session, on every instance (app.tsx keeps sessions on the
// server). Failed tries are counted per 15 minutes, then a 429:
//
//   5 per account from one client address    the admin's typos lock out only their own address
//   50 per account, from every address        the backstop: ten addresses or more to lock the admin out everywhere
//   50 per client address, all accounts       one address guessing many accounts

import { redirect, setHeader, setStatus, urlFor, type PageRequest } from 'pagetree';
import {
  clientAddress,
  hashPassword,
  LoginThrottle,
  safeNext,
  session,
  verifyPassword,
  type ThrottleStore,
} from 'pagetree/auth';
import { parseForm } from 'pagetree/forms';
import { z } from 'zod';
import { Layout } from './layout.tsx';
import { TasksPage } from './tasks.tsx';

/** The one admin account: from ADMIN_EMAIL and ADMIN_PASSWORD (main.ts), or made up at start. */
export interface AdminAccount {
  email: string;
  password: string;
}

export interface LoginDeps {
  admin: AdminAccount;
  /** Where failed logins are counted: shared by every instance (default: this process's memory). */
  throttle?: ThrottleStore;
}

const LoginInput = z.object({
  email: z.string().trim().toLowerCase().min(1, 'Your e-mail address').max(254),
  password: z.string().min(1, 'Your password').max(1024),
});

interface LoginProps {
  email: string;
  next: string;
  error?: string;
}

export class LoginPage {
  readonly #email: string;
  readonly #passwordHash: Promise<string>;
  readonly #throttle: LoginThrottle;

  constructor(deps: LoginDeps) {
    this.#throttle = new LoginThrottle({ store: deps.throttle, perAccountAndAddress: 5, perAccount: 50 });
    this.#email = deps.admin.email.trim().toLowerCase();
    this.#passwordHash = hashPassword(deps.admin.password); // once, at mount: the password itself is not kept
  }

  props(req: PageRequest): LoginProps {
    return { email: '', next: safeNext(new URL(req.url).searchParams.get('next')) };
  }

  async post(req: PageRequest): Promise<LoginProps | Response> {
    const next = safeNext(new URL(req.url).searchParams.get('next'));
    const form = await parseForm(req, LoginInput);
    const email = form.values.email ?? '';
    if (!form.ok) {
      setStatus(422);
      return { email, next, error: 'Give your e-mail address and password.' };
    }
    // Counted now, before the password is checked: per client address where the adapter knows it, per account from
    // that address, and per account.
    const address = clientAddress(req) || undefined;
    const wait = await this.#throttle.attempt(form.data.email, address);
    if (wait > 0) {
      setStatus(429);
      setHeader('Retry-After', String(wait));
      return { email, next, error: `Too many tries: try again in ${Math.ceil(wait / 60)} minutes.` };
    }
    // The password is checked even for an unknown address, so that the answer takes as long either way.
    const right = await verifyPassword(form.data.password, await this.#passwordHash);
    if (!right || form.data.email !== this.#email) {
      setStatus(422);
      return { email, next, error: 'That e-mail address and password do not match.' };
    }
    await this.#throttle.succeeded(form.data.email, address);
    const s = await session();
    await s.regenerate(); // a new id for the logged-in session: one planted before the login names nothing
    await s.set({ email: form.data.email });
    return redirect(next);
  }

  page(props: LoginProps) {
    const action = `${urlFor(LoginPage)}?${new URLSearchParams({ next: props.next })}`;
    return (
      <Layout title="Log in">
        <form class="login" action={action} method="post">
          {props.error !== undefined && (
            <p class="field-error" role="alert" safe>
              {props.error}
            </p>
          )}
          <label>
            E-mail address
            <input name="email" type="email" autocomplete="username" value={props.email} required autofocus />
          </label>
          <label>
            Password
            <input name="password" type="password" autocomplete="current-password" required />
          </label>
          <button type="submit">Log in</button>
        </form>
      </Layout>
    );
  }
}

/** POST /logout: ends the session (the cookie deleted) and goes to the tasks. */
export class LogoutPage {
  async post() {
    await (await session()).destroy();
    return redirect(urlFor(TasksPage));
  }
}
