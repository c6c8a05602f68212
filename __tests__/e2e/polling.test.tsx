// The archive flow of Hypermedia Systems, chapter 7 (issue 26.10), as docs/polling.md gives it: start a job, poll
// its progress, stop polling, download the file. In Chromium with htmx 4 and htmx 2, two ways to poll: the book's
// load polling (the poller replaces itself until the job is done) and `every` polling stopped by swapping the poller
// away (htmx 4 ignores htmx 2's status 286, so that is the way that works in both).

import { id, idTarget, mount, renderComponent, route, sendFile, ServeMux, type PageRequest } from '../../core/index.ts';
import { urlFor } from '../support/url-for.ts';
import { poll, useChromium } from '../support/chromium.ts';
import { htmxDocument, useAppServer } from '../support/app-server.ts';

jest.setTimeout(60_000);

/**
 * A job that makes the archive in two steps. The book's Archiver runs a thread; here each poll while it runs is one
 * step, once the test has seen its progress (`release`), so that neither a loaded browser nor a loaded test misses a
 * stage: a job timed by the clock could end before the first poll, or before the test looked for the progress bar.
 */
class Archiver {
  status: 'Waiting' | 'Running' | 'Complete' = 'Waiting';
  progress = 0;
  #held = true;

  run(): void {
    if (this.status === 'Running') return;
    this.status = 'Running';
    this.progress = 0;
  }

  release(): void {
    this.#held = false;
  }

  step(): void {
    if (this.status !== 'Running' || this.#held) return;
    this.progress = Math.min(1, this.progress + 0.5);
    if (this.progress >= 1) this.status = 'Complete';
  }

  file(): string {
    return JSON.stringify([{ name: 'Ada' }, { name: 'Grace' }]);
  }
}

let archiver = new Archiver();
let polls = 0;

/** The contacts page with its archive region; `?htmx=2` loads htmx 2, `?poll=every` polls with `every`. */
class ContactsPage {
  props(req: PageRequest) {
    const q = new URL(req.url).searchParams;
    return { htmx: q.get('htmx') ?? '4', every: q.get('poll') === 'every' };
  }
  page(props: { htmx: string; every: boolean }) {
    return htmxDocument(props.htmx, <div id={id(this.archiveUi)}>{this.archiveUi(props)}</div>);
  }
  /** The archive region: a button, the progress while the job runs (polling), or the download link. */
  archiveUi(props: { every: boolean }) {
    const url = urlFor([ArchivePage, '?poll={poll}'], { poll: props.every ? 'every' : 'load' });
    if (archiver.status === 'Waiting') {
      return (
        <button hx-post={url} hx-target={idTarget(this.archiveUi)}>
          Download Contact Archive
        </button>
      );
    }
    if (archiver.status === 'Running') {
      // Load polling re-renders the poller, which asks again after 200 ms; `every` polling keeps the element and
      // asks every 200 ms until an answer swaps it away (outerHTML).
      const trigger = props.every ? 'every 200ms' : 'load delay:200ms';
      const swap = props.every ? 'outerHTML' : 'innerHTML';
      return (
        <div
          class="poller"
          hx-get={url}
          hx-trigger={trigger}
          hx-target={props.every ? 'this' : idTarget(this.archiveUi)}
          hx-swap={swap}
        >
          Creating Archive… <progress value={String(archiver.progress)} max="1"></progress>
        </div>
      );
    }
    return (
      <a href={urlFor(ArchiveFile)} download="contacts.json">
        Archive Ready! Click here to download.
      </a>
    );
  }
}

/** POST starts the job; GET is what the poller asks: the region as it is now. */
class ArchivePage {
  props(req: PageRequest) {
    polls++;
    if (req.method === 'GET') archiver.step();
    return renderComponent(
      ContactsPage.prototype.archiveUi({ every: new URL(req.url).searchParams.get('poll') === 'every' }),
    );
  }
  post(req: PageRequest) {
    archiver.run();
    return this.props(req);
  }
}

class ArchiveFile {
  props(req: PageRequest) {
    return sendFile(req, archiver.file(), { filename: 'contacts.json' });
  }
}

class App {
  contacts = route('GET /{$}', ContactsPage);
  archive = route('/contacts/archive', ArchivePage);
  file = route('GET /contacts/archive/file', ArchiveFile);
}

const chromium = useChromium();
const mux = new ServeMux();
mount(mux, App);
const app = useAppServer(mux);

describe.each(['4', '2'])('the archive flow with htmx %s', (htmx) => {
  test.each(['load', 'every'])(
    '%s polling: progress, then the link, then no more polls; the file downloads',
    async (how) => {
      archiver = new Archiver();
      polls = 0;
      const page = await chromium.browser.newPage();
      await page.goto(`${app.base}/?htmx=${htmx}&poll=${how}`);
      await page.click('text=Download Contact Archive');
      await page.locator('.poller progress').waitFor();
      archiver.release(); // the job runs on from here, a step per poll
      const link = page.locator('a', { hasText: 'Archive Ready! Click here to download.' });
      await link.waitFor({ timeout: 5000 });
      expect(await page.locator('.poller').count()).toBe(0);
      // Polling has stopped: no request for a while after the link came (counted from a moment later, so that a poll
      // a loaded browser had already sent is not taken for a new one; polling on would send three in 700 ms).
      await new Promise((r) => setTimeout(r, 300));
      const after = polls;
      await new Promise((r) => setTimeout(r, 700));
      expect(polls).toBe(after);
      // At least the POST and the two polls whose steps ended the job (more while the test looked for the progress).
      expect(after).toBeGreaterThanOrEqual(3);
      const file = await page.request.get(app.base + (await link.getAttribute('href'))!);
      expect([file.status(), file.headers()['content-disposition'], await file.text()]).toEqual([
        200,
        'attachment; filename="contacts.json"',
        archiver.file(),
      ]);
      expect(
        await poll(
          () => page.locator('progress').count(),
          (n) => n === 0,
        ),
      ).toBe(0);
      await page.close();
    },
  );
});
