// The page module loaded with one runtime or the other, for run.ts and profile.ts. The .tsx file is compiled once
// (tsx, or tsc for the compiled run) into code that requires pagetree/jsx-runtime; for kitajs, @kitajs/html's runtime
// stands in that name's require-cache entry while the module loads (as bench/attrs does), so both renders run the
// same compiled page and differ only in the runtime. Two entry files with a `@jsxImportSource` pragma each could not
// share one source: the pragma is per file, so the page would be written twice.

/** The two runtimes, kitajs's first (the baseline). */
export const RUNTIMES = ['kitajs', 'pagetree'] as const;
/** A runtime of RUNTIMES. */
export type Runtime = (typeof RUNTIMES)[number];

type PageModule = typeof import('./real-world-page.tsx');

/**
 * The page rendered as kitajs's benchmark renders it (`RealWorldPage('Benchmark', purchases)`, 1,000 purchases) by
 * a fresh copy of real-world-page.tsx bound to `runtime`.
 * @example loadPage('kitajs')() // → '<html lang="en">…' (174,668 bytes)
 */
export function loadPage(runtime: Runtime): () => string {
  // CommonJS on purpose: loading one module with another runtime needs the require cache.
  /* eslint-disable @typescript-eslint/no-require-imports */
  const modulePath = require.resolve('./real-world-page');
  const runtimePath = require.resolve('pagetree/jsx-runtime');
  require(runtimePath);
  const saved = require.cache[runtimePath]!;
  if (runtime === 'kitajs') {
    require.cache[runtimePath] = { ...saved, exports: require('@kitajs/html/jsx-runtime') } as NodeJS.Module;
  }
  delete require.cache[modulePath];
  let m: PageModule;
  try {
    m = require(modulePath) as PageModule;
  } finally {
    require.cache[runtimePath] = saved;
    delete require.cache[modulePath];
  }
  /* eslint-enable @typescript-eslint/no-require-imports */
  const purchases = m.generatePurchases(1000);
  return () => m.realWorldPage('Benchmark', purchases);
}
