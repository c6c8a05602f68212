// Node's built-in modules where a runtime has them (Node, Bun, Deno, workerd with nodejs_compat), taken at run time
// through process.getBuiltinModule instead of imported: a module of pagetree that needs one (zlib for compression,
// crypto for passwords, diagnostics_channel for tracing, fs for static files) still loads where there is none, and
// says what is missing only when the feature is used.

/** The built-in modules pagetree takes, by name. */
export interface NodeModules {
  'node:crypto': typeof import('node:crypto');
  'node:diagnostics_channel': typeof import('node:diagnostics_channel');
  'node:fs': typeof import('node:fs');
  'node:path': typeof import('node:path');
  'node:zlib': typeof import('node:zlib');
}
export type NodeModuleName = keyof NodeModules;

/** A Node built-in module, taken at run time: Node 20.16+, Bun, Deno and workerd with nodejs_compat have it. */
export function optionalNodeModule<TName extends NodeModuleName>(name: TName): NodeModules[TName] | undefined {
  // `process` itself is absent on a runtime without Node's globals.
  return typeof process === 'undefined' ? undefined : process.getBuiltinModule?.(name);
}
