// Text frames on runtimes whose WebSocket sends a string as text and bytes as binary (Bun, Deno, workerd): the
// bytes a hub encoded once become one string, decoded once for all its sockets; and a message's size in UTF-8
// bytes, as a frame counts it, for a route's maxMessage.
//
//   frameText(hub's bytes)           → "<li>…</li>"  (the same string for each of the hub's 5,000 sockets)
//   utf8Over("é".repeat(513), 1024)  → true          (513 characters, 1026 bytes)
//
// The adapters take it from pagetree/adapter: one copy of the trick for all of them.

const decoder = new TextDecoder();
// Weak: a hub's message is held by its sockets' queues only, then collected with its string.
const decoded = new WeakMap<Uint8Array, string>();

/**
 * The text of a message's UTF-8 bytes, decoded once per bytes object (a hub hands every socket the same one).
 * @example frameText(new TextEncoder().encode('<p>hi</p>')) // → "<p>hi</p>"
 */
export function frameText(bytes: Uint8Array): string {
  let text = decoded.get(bytes);
  if (text === undefined) {
    text = decoder.decode(bytes);
    decoded.set(bytes, text);
  }
  return text;
}

/**
 * Whether `text` is more than `limit` bytes in UTF-8, as a frame counts it; counted only as far as needed: a string
 * that fits at 3 bytes a character is not walked.
 * @example utf8Over('é'.repeat(513), 1024) // → true (1026 bytes)
 */
export function utf8Over(text: string, limit: number): boolean {
  if (text.length > limit) return true;
  if (text.length * 3 <= limit) return false;
  let bytes = text.length;
  for (let i = 0; i < text.length && bytes <= limit; i++) {
    const c = text.charCodeAt(i);
    // 1 byte below 0x80, 2 below 0x800, 3 above; a surrogate pair's two units make 4 (2 each).
    if (c >= 0x80) bytes += c < 0x800 || (c >= 0xd800 && c <= 0xdfff) ? 1 : 2;
  }
  return bytes > limit;
}
