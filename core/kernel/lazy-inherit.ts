// Lazy native objects: a cheap class that passes for a Request, Headers or Response.
//
//   NodeRequest.prototype   method, url, headers, text, …   the lite class's own: answered from plain data
//                           body, cache, clone, …           installed here: real(this).body, real(this).clone()
//     └─ Request.prototype  body, cache, clone, …           native: need a real Request's internal slots
//
// A lite class answers the members a request's hot path reads from plain data. Everything else of the native
// prototype gets a forwarder, installed once at module load, that builds the real object on first use (`real`
// caches it) and reads or calls the same member there. The native getters cannot simply be inherited: called on
// a lite object they throw, for the lite object has none of the native one's internal slots.
// After srvx's `lazyInherit` (src/_inherit.ts).

/**
 * Makes instances of `lite` pass for instances of `native`: `native.prototype` goes under `lite.prototype` (so
 * `instanceof` holds), and each member of `native.prototype` that `lite.prototype` does not define itself gets
 * a forwarder to the same member of `real(this)`. Getters and setters forward as getters and setters, methods
 * as methods (symbol-keyed ones too, such as `Symbol.iterator`); plain values (`Symbol.toStringTag`) are
 * inherited as they are. Called once per class, at module load: nothing is added per instance.
 * @example lazyInherit(LiteResponse, Response, real) // then liteResponse(200, 'hi', {}).text() → real(res).text() → "hi"
 */
export function lazyInherit<TLite extends object, TNative extends object>(
  lite: abstract new (...args: never[]) => TLite,
  native: { prototype: TNative },
  real: (self: TLite) => TNative,
): void {
  const target = lite.prototype as object;
  const source = native.prototype;
  Object.setPrototypeOf(target, source);
  // The native prototype of the runtime running us: Bun, Deno and workerd each have their own set of members.
  for (const key of Reflect.ownKeys(source)) {
    if (key === 'constructor' || Object.hasOwn(target, key)) continue;
    const desc = Object.getOwnPropertyDescriptor(source, key)!;
    if (desc.get || desc.set) {
      Object.defineProperty(target, key, {
        ...desc,
        get:
          desc.get &&
          function (this: TLite) {
            return (real(this) as Record<PropertyKey, unknown>)[key];
          },
        set:
          desc.set &&
          function (this: TLite, value: unknown) {
            (real(this) as Record<PropertyKey, unknown>)[key] = value;
          },
      });
    } else if (typeof desc.value === 'function') {
      Object.defineProperty(target, key, {
        ...desc,
        value(this: TLite, ...args: unknown[]) {
          return (real(this) as Record<PropertyKey, (...a: unknown[]) => unknown>)[key]!(...args);
        },
      });
    }
  }
}
