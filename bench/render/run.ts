// The goal of issue 28: kitajs/html's benchmark page through pagetree's JSX runtime at least as fast as through
// @kitajs/html's own. One page (real-world-page.tsx, copied from kitajs's benchmark: 174,668 bytes of HTML for its
// 1,000 purchases), two runtimes:
//
//   - kitajs: @kitajs/html/jsx-runtime, what kitajs's benchmark times (its RealWorldPage, "KitaJs");
//   - pagetree: pagetree/jsx-runtime, kitajs's children with attributes of its own (jsx-runtime/attributes.ts).
//
//   npm run bench:render        compiled (tsc into build/, pagetree/jsx-runtime from dist/), as an app in production
//   npm run bench:render:tsx    through tsx (pagetree/jsx-runtime from its .ts sources, behind tsx's export getters)
//
// The page is compiled once and loaded once per runtime (load.ts). Before timing, the two renders must be
// byte-identical: the page has no `&` in an attribute value, the one place the runtimes write differently (pagetree
// escapes it, kitajs does not; bench/attrs times that). Interleaved rounds (lib/micro.ts), medians; each ratio is the
// median of the per-round ratios.

import { environment, runMain, setting } from '../lib/main.ts';
import { repeat, timeOps } from '../lib/micro.ts';
import { fail, formatRatio, formatSpread, median, medianRatio, printTable } from '../lib/report.ts';
import { loadPage, RUNTIMES } from './load.ts';

const TIMING = { rounds: setting('ROUNDS', 31), roundMs: 200, warmupMs: 1000 };

async function main(): Promise<void> {
  const renders = RUNTIMES.map(loadPage);

  const [kitajs, pagetree] = renders.map((render) => render());
  if (kitajs!.length < 100_000) fail(`the page is only ${kitajs!.length} bytes`);
  if (kitajs !== pagetree) {
    let at = 0;
    while (kitajs![at] === pagetree![at]) at++;
    fail(
      `kitajs and pagetree render different bytes from offset ${at}: ${JSON.stringify(pagetree!.slice(at, at + 80))}`,
    );
  }

  const ops = await timeOps(
    renders.map((render) => ({ run: repeat(render) })),
    TIMING,
  );

  console.log(`bench/render: ${environment()}; ${TIMING.rounds} interleaved rounds of ${TIMING.roundMs} ms, medians`);
  console.log(`kitajs's real-world page, 1,000 purchases: ${kitajs!.length} bytes, identical from both runtimes`);
  const kitajsOps = ops[0]!;
  printTable(
    ['runtime', 'µs per page', 'spread', 'time vs kitajs', 'speed vs kitajs'],
    RUNTIMES.map((r, i) => [
      r,
      (1e6 / median(ops[i]!)).toFixed(1),
      formatSpread(ops[i]!),
      formatRatio(medianRatio(kitajsOps, ops[i]!)),
      formatRatio(medianRatio(ops[i]!, kitajsOps)),
    ]),
  );
}

runMain(main);
