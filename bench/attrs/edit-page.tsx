// A page whose attributes do need escaping, for bench/attrs: an edit form of
// 20 rows, each with the title in an input's value, a link and an htmx button
// whose URLs have query strings, and hx-vals JSON (quotes). Rendered by
// whichever JSX runtime the module is loaded with (run.ts loads it three times).

/** One row of the form. */
export interface Row {
  id: number;
  title: string;
}

const samples = ['Tom & Jerry', '&lt;b&gt; is how to write <b>', 'say "hi"', 'fish & chips & "peas"', 'plain text'];

/** 20 rows, most with `&` or `"` in the title. */
export function loadRows(): Row[] {
  return Array.from({ length: 20 }, (_, i) => ({ id: i + 1, title: samples[i % samples.length]! }));
}

/** The form; a string (no async component in it). */
export function editPage(rows: Row[]): string {
  const html = (
    <form action="/tasks?view=edit&page=2" method="post" class={['edit', 'tasks']}>
      {rows.map((r) => (
        <fieldset>
          <input name={`title-${r.id}`} value={r.title} required />
          <a href={`/tasks/${r.id}?q=${encodeURIComponent(r.title)}&sort=title`} safe>
            {r.title}
          </a>
          <button hx-post={`/tasks/${r.id}?done=1&page=2`} hx-vals={JSON.stringify({ title: r.title })}>
            Save
          </button>
        </fieldset>
      ))}
    </form>
  );
  if (typeof html !== 'string') throw new TypeError('bench/attrs: the form rendered a Promise');
  return html;
}
