// Names: which methods of a page are components, their kebab-case ids, and the short hash that keeps shortened
// ids unique. Runtime-free: the lint plugin reads the same rules.

/** The verb methods a page may define beside `props` (GET and HEAD): each answers its own HTTP method. */
export const verbMethods = ['post', 'put', 'patch', 'delete'] as const;

// Methods that are never components. `error` is a section's error page (dispatch.ts), called with the failure.
const notComponents = new Set<string>([
  'constructor',
  'props',
  'serveHTTP',
  'middlewares',
  'init',
  'error',
  ...verbMethods,
]);

/**
 * Whether a page method is a component (rendered and targetable by id): not a lifecycle, verb or `error` method,
 * not `_private`, not a `…Props` helper.
 * @example isComponentName('todoList') // → true; isComponentName('error') → false; isComponentName('_cache') → false
 */
export function isComponentName(name: string): boolean {
  return !notComponents.has(name) && !name.startsWith('_') && !name.endsWith('Props');
}

// A socket route's methods (a page with message(), live/socket-route.ts): called with the socket, never rendered.
export const socketMethods: ReadonlySet<string> = new Set(['open', 'message', 'close']);

/**
 * The components among a page's method names, in their order: isComponentName's, less `open`, `message` and
 * `close` when the page is a socket route (it has `message`), as mount counts them (page-node.ts).
 * @example componentNames(['open', 'message', 'count']) // → ["count"]; componentNames(['open']) → ["open"]
 */
export function componentNames(methods: Iterable<string>): string[] {
  const names = [...methods];
  const socket = names.includes('message');
  return names.filter((m) => isComponentName(m) && !(socket && socketMethods.has(m)));
}

/**
 * kebab-cases a field or method name; "_" is kept.
 * @example kebab('HTMLParser') // → "html-parser"; kebab('userID') → "user-id"
 */
export function kebab(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1-$2')
    .toLowerCase();
}

/**
 * Four hex digits of the FNV-1a hash of a string.
 * @example shortHash('admin.users.list') // → "9c1e" (stable across runs)
 */
export function shortHash(s: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return ((h >>> 16) ^ (h & 0xffff)).toString(16).padStart(4, '0');
}
