// Test helpers: real htmx header sets and a fetch through the mux.

import type { ServeMux } from '../../core/index.ts';

/** What a browser sees of a response. */
export interface Seen {
  status: number;
  headers: Headers;
  body: string;
}

/** The headers htmx 2 sends for a request that swaps into element `#target`. */
export function htmx2(target?: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    'HX-Request': 'true',
    'HX-Current-URL': 'http://localhost/',
    ...(target === undefined ? {} : { 'HX-Target': target }),
    ...extra,
  };
}

/** The headers htmx 4 sends: `HX-Target: tag#id` and `HX-Request-Type`. */
export function htmx4(target?: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    'HX-Request': 'true',
    'HX-Request-Type': 'partial',
    'HX-Current-URL': 'http://localhost/',
    ...(target === undefined ? {} : { 'HX-Target': target, 'HX-Source': target }),
    ...extra,
  };
}

/** Requests `path` from the mux as a browser would, and reads the whole answer. */
export async function fetchPage(
  mux: ServeMux,
  path: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Seen> {
  const res = await mux.fetch(new Request(`http://localhost${path}`, init));
  return { status: res.status, headers: res.headers, body: await res.text() };
}
