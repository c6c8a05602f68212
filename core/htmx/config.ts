// The `htmx-config` meta a layout needs so that htmx 2 swaps a 422 (a form with its errors), as htmx 4 does.
//
//   <HtmxConfig />                          → <meta name="htmx-config" content="{&#34;responseHandling&#34;:[…]}">
//   <HtmxConfig config={{ defaultSwapStyle: 'outerHTML' }} />   the same, with the app's own settings merged in
//
// htmx 2 swaps no 4xx answer by default; its documentation gives this `responseHandling` for exactly this case.
// htmx 4 swaps every status and merges the meta into its config too, where `responseHandling` is a key it never
// reads: harmless. Give htmx 4 settings in `config` as well; both versions read the one meta.

import { escapeHtml } from '../kernel/answer.ts';

/** htmx 2's responseHandling with 422 swapped: 204 and 304 not, 2xx and 3xx yes, 422 yes, other 4xx and 5xx as errors. */
const htmx2ResponseHandling = [
  { code: '204', swap: false },
  { code: '[23]..', swap: true },
  { code: '422', swap: true },
  { code: '[45]..', swap: false, error: true },
  { code: '...', swap: true },
] as const;

/**
 * The `<meta name="htmx-config">` of a layout's head: htmx 2 swaps 422 answers (the 422 loop of forms), and the
 * app's own settings (`config`) are merged in; a `responseHandling` of its own replaces pagetree's.
 * @example <head><HtmxConfig config={{ historyCacheSize: 0 }} /></head>
 */
export function HtmxConfig(props: { config?: Record<string, unknown> } = {}): string {
  const config = { responseHandling: htmx2ResponseHandling, ...props.config };
  return `<meta name="htmx-config" content="${escapeHtml(JSON.stringify(config))}"/>`;
}
