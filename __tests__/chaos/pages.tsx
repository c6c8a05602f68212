// The chaos suite's pages: one small page per feature, written as the docs and pages-example write them (app.tsx
// mounts them and lists them in its table). The query picks a variant, so that the hostile traffic reaches the
// feature's slow, failing and odd paths too:
//
//   /stream?part=big|reject|session&delay=5   a streamed page: a ~100 KB and a 20 KB <Suspense> part
//   /regions?then=ok|redirect|error|fail|reject   POST: alsoRender(region, <AsyncCount/>), then the action ends so
//   /async?case=ok|reject|beside-throw|slow    async components, one that rejects, one beside a sync throw
//   /socket?case=ok|throw|reject               a socket route: messages validated, published through a SocketHub
//                                               on the memory broker; a message {"text":"throw"} makes it fail

import { z } from 'zod';
import {
  alsoRender,
  clientAddress,
  EventHub,
  eventStream,
  hashPassword,
  HttpError,
  LoginThrottle,
  parseForm,
  redirect,
  renderComponent,
  requireLogin,
  sendFile,
  session,
  setHeader,
  setStatus,
  Suspense,
  verifyPassword,
  type Broker,
  type PageRequest,
} from '../../core/index.ts';
import { MethodField } from '../../core/forms/method-override.ts';
import { parseMessage, SocketHub, type Socket } from '../../core/live/index.ts';

const query = (req: PageRequest) => new URL(req.url).searchParams;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// Text that compresses as a page does (words, not one repeated byte), made once.
const words = 'alpha beta gamma delta epsilon zeta theta kappa lambda sigma omega tasks done open'.split(' ');
const prose = Array.from({ length: 24_000 }, (_, i) => words[(i * 7919) % words.length]).join(' ');
const text = (bytes: number) => prose.slice(0, bytes);

/** What the pages are built with: the brokers the event streams follow, by name. */
export interface ChaosDeps {
  brokers: Record<string, Broker>;
}

async function Part(props: { bytes: number; delay: number; fail?: boolean }) {
  await sleep(props.delay);
  if (props.fail) throw new Error('chaos: a streamed part that fails');
  return (
    <section class="part" safe>
      {text(props.bytes)}
    </section>
  );
}

// A session written after the first byte (issue 40, defect 5): an error there, never a silent loss.
async function SessionPart() {
  await sleep(1);
  const s = await session();
  await s.set({ email: 'part@example.com' });
  return <p>saved</p>;
}

/** A streamed page (docs/streaming.md): the shell at once, the parts as they resolve. */
export class StreamPage {
  stream = true;

  props(req: PageRequest) {
    const q = query(req);
    return { part: q.get('part') ?? 'big', delay: Math.min(50, Number(q.get('delay')) || 0) };
  }

  page(props: { part: string; delay: number }) {
    return (
      <>
        {'<!doctype html>'}
        <html>
          <head>
            <title>Streamed</title>
          </head>
          <body>
            <p safe>{text(2000)}</p>
            <Suspense fallback={<p>Loading the big part…</p>}>
              <Part bytes={100_000} delay={props.delay} />
            </Suspense>
            <Suspense fallback={<p>Loading…</p>}>
              <Part bytes={20_000} delay={props.delay * 2} fail={props.part === 'reject'} />
            </Suspense>
            {props.part === 'session' && (
              <Suspense fallback={<p>Saving…</p>}>
                <SessionPart />
              </Suspense>
            )}
          </body>
        </html>
      </>
    );
  }
}

async function AsyncCount(props: { fail: boolean }) {
  await sleep(1);
  if (props.fail) throw new Error('chaos: the count query failed');
  return <b>3</b>;
}

/** An htmx action with a region beside its answer (docs/htmx-regions.md), and every way such an action ends. */
export class RegionsPage {
  props() {
    return {};
  }

  post(req: PageRequest) {
    const then = query(req).get('then') ?? 'ok';
    alsoRender(this.count, <AsyncCount fail={then === 'reject'} />);
    if (then === 'redirect') return redirect('/regions');
    if (then === 'error') throw new HttpError(409, 'Conflict: the task changed meanwhile');
    if (then === 'fail') throw new Error('chaos: the database failed');
    return renderComponent(<p>saved</p>);
  }

  page() {
    return <p id="count">{this.count()}</p>;
  }

  count() {
    return <b>2</b>;
  }
}

async function Rejects(): Promise<string> {
  await sleep(1);
  throw new Error('chaos: an async component rejects');
}
function ThrowsSync(): string {
  throw new Error('chaos: a component throws');
}
async function Slow() {
  await sleep(20);
  return <p>slow</p>;
}

/** Async components in a page rendered whole: one resolves, one rejects, one rejects beside a sync throw. */
export class AsyncPage {
  props(req: PageRequest) {
    return { which: query(req).get('case') ?? 'ok' };
  }

  page(props: { which: string }) {
    if (props.which === 'reject') {
      return (
        <div>
          <Rejects />
        </div>
      );
    }
    if (props.which === 'beside-throw') {
      return (
        <div>
          <Rejects />
          <ThrowsSync />
        </div>
      );
    }
    return <div>{props.which === 'slow' ? <Slow /> : <AsyncCount fail={false} />}</div>;
  }
}

const TaskInput = z.object({ title: z.string().trim().min(1).max(200), done: z.stringbool().default(false) });
const limits = { maxFields: 100, maxFiles: 3, maxFieldBytes: 8 * 1024 };

/** A form (docs/forms.md): the 422 loop, with limits below the defaults. */
export class FormPage {
  props() {
    return { error: '' };
  }

  async post(req: PageRequest) {
    const form = await parseForm(req, TaskInput, limits);
    if (!form.ok) {
      setStatus(422);
      return { error: 'invalid' };
    }
    return redirect('/form');
  }

  page(props: { error: string }) {
    return (
      <form method="post">
        <p safe>{props.error}</p>
        <input name="title" />
      </form>
    );
  }
}

/** A form without JavaScript (docs/forms.md): its POST names PUT or DELETE in `_method`, methodOverride does the rest. */
export class OverridePage {
  props() {
    return { error: '' };
  }

  async put(req: PageRequest) {
    const form = await parseForm(req, TaskInput, limits);
    if (!form.ok) {
      setStatus(422);
      return { error: 'invalid' };
    }
    return redirect('/override');
  }

  async delete(req: PageRequest) {
    return this.put(req);
  }

  page(props: { error: string }) {
    return (
      <form method="post">
        <MethodField method="PUT" />
        <p safe>{props.error}</p>
        <input name="title" />
      </form>
    );
  }
}

const UploadInput = z.object({ title: z.string().max(200), file: z.instanceof(File).optional() });

/** A multipart form with a file (docs/forms.md), with limits. */
export class UploadPage {
  props() {
    return { size: -1 };
  }

  async post(req: PageRequest) {
    const form = await parseForm(req, UploadInput, limits);
    if (!form.ok) setStatus(422);
    return { size: form.ok ? (form.data.file?.size ?? 0) : -1 };
  }

  page(props: { size: number }) {
    return <p>{props.size}</p>;
  }
}

// Names an app may take from its data: a lone surrogate, a right-to-left override, quotes, line breaks.
const filenames = ['report.csv', 'contacts €.csv', '\uD800.txt', 'a\u202Etxt.exe', 'say "hi".txt', 'a\r\nb.txt', ''];
const fileBytes = new TextEncoder().encode(text(50_000));

/** A generated download (sendFile): ETag, 304, ranges, HEAD; the name from the app's own list (`?n=`). */
export class FilePage {
  props(req: PageRequest) {
    const n = Number(query(req).get('n')) || 0;
    return sendFile(req, fileBytes, { filename: filenames[Math.abs(n) % filenames.length] });
  }
}

/** /events/{broker}: a live region through EventHub on that broker; /events/direct, eventStream per client. */
export class EventsPage {
  readonly #hubs = new Map<string, EventHub>();

  constructor(deps: ChaosDeps) {
    for (const [name, broker] of Object.entries(deps.brokers)) {
      const render = async (m: { data: string }) => {
        await sleep(0);
        return <p safe>{m.data}</p>;
      };
      this.#hubs.set(name, new EventHub({ broker, topic: `chaos-${name}`, render, replay: { size: 20, age: 5 } }));
    }
  }

  props(req: PageRequest) {
    const name = req.pathValue('broker');
    if (name === 'direct') {
      return eventStream(
        req,
        (stream) => {
          const timer = setInterval(() => void stream.send(Promise.resolve(`<p>${Date.now()}</p>`)), 20);
          return () => clearInterval(timer);
        },
        { retry: 1000, heartbeat: 50 },
      );
    }
    const hub = this.#hubs.get(name);
    if (!hub) throw new HttpError(404, 'No such broker');
    return hub.stream(req, { retry: 1000 });
  }
}

/** Sessions (docs/auth.md): GET reads; POST ?do=set|regenerate|destroy writes. */
export class SessionPage {
  async props() {
    return { email: (await session()).data.email ?? '' };
  }

  async post(req: PageRequest) {
    const s = await session();
    const what = query(req).get('do');
    if (what === 'regenerate') await s.regenerate();
    else if (what === 'destroy') await s.destroy();
    else await s.set({ email: `${s.data.email ?? ''}x`.slice(0, 64) });
    return { email: s.data.email ?? '' };
  }

  page(props: { email: string }) {
    return <p safe>{props.email}</p>;
  }
}

const LoginInput = z.object({ email: z.string().trim().toLowerCase().max(254), password: z.string().min(1) });
const account = { email: 'ada@example.com', hash: hashPassword('correct-horse') };

/** A login form with a throttle (docs/auth.md, as written there). */
export class LoginPage {
  // Ten tries per address (50 by default): each try hashes (~0.1 s of a core), and the load comes from one address.
  readonly #throttle = new LoginThrottle({ maxKeys: 1000, perAddress: 10 });

  props() {
    return { error: '' };
  }

  async post(req: PageRequest) {
    const form = await parseForm(req, LoginInput);
    if (!form.ok) {
      setStatus(422);
      return { error: 'Give your e-mail address and password' };
    }
    const address = clientAddress(req) || undefined;
    const wait = await this.#throttle.attempt(form.data.email, address);
    if (wait > 0) {
      setStatus(429);
      setHeader('Retry-After', String(wait));
      return { error: 'Too many tries' };
    }
    const right = await verifyPassword(form.data.password, await account.hash);
    if (!right || form.data.email !== account.email) {
      setStatus(422);
      return { error: 'No match' };
    }
    await this.#throttle.succeeded(form.data.email, address);
    const s = await session();
    await s.regenerate();
    await s.set({ email: form.data.email });
    return redirect('/session');
  }

  page(props: { error: string }) {
    return (
      <form method="post">
        <p safe>{props.error}</p>
      </form>
    );
  }
}

/** A page behind the login (requireLogin): a 303 to /login, or HX-Location for htmx, until logged in. */
export class PrivatePage {
  middlewares() {
    return [requireLogin({ login: LoginPage, loggedIn: (s) => s.data.email !== undefined })];
  }

  page() {
    return <p>private</p>;
  }
}

const Chat = z.object({ text: z.string().trim().min(1).max(200) });

// A chat as docs/websockets.md writes one: open sends the form and follows the hub; a valid message is published on the
// memory broker and every socket gets it rendered once; an invalid one gets its form back; "throw"/"reject" fail.
export class SocketPage {
  readonly #hub: SocketHub;
  readonly #broker: Broker;

  constructor(deps: ChaosDeps) {
    this.#broker = deps.brokers.memory!;
    this.#hub = new SocketHub({
      broker: this.#broker,
      topic: 'chaos-socket',
      render: async (m) => {
        await sleep(0);
        return <li safe>{m.data}</li>;
      },
    });
  }

  props(req: PageRequest) {
    return { room: query(req).get('room') ?? 'main' };
  }

  open(socket: Socket, props: { room: string }) {
    socket.subscribe(this.#hub);
    return socket.send(<p safe>{props.room}</p>);
  }

  async message(socket: Socket, data: string) {
    const form = await parseMessage(data, Chat);
    if (!form.ok) {
      await socket.send(<em safe>{form.errors.text?.[0] ?? form.formErrors[0]}</em>);
      return;
    }
    if (form.data.text === 'throw') throw new Error('chaos: a socket handler that throws');
    if (form.data.text === 'reject') await Promise.reject(new Error('chaos: a socket handler that rejects'));
    await this.#broker.publish('chaos-socket', form.data.text);
  }
}
