// npm test's XSS scan: @kitajs/ts-html-plugin's xss-scan reports each JSX child that is not escaped. It exits 0 even
// when it crashed (on a TypeScript it cannot drive, for one), so a quiet run proves nothing: this fails unless it
// reports test/xss-known-bad.tsx, unescaped on purpose, and nothing else.

import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';

const knownBad = 'test/xss-known-bad.tsx';
const cli = createRequire(import.meta.url).resolve('@kitajs/ts-html-plugin/dist/cli.js');
const scan = spawnSync(process.execPath, [cli, '--project', 'tsconfig.json', '--simplified'], { encoding: 'utf8' });
const output = `${scan.stdout ?? ''}${scan.stderr ?? ''}`.trim();
// --simplified prints one line per finding: "src/page.tsx(12,5): error TS0 K601: Usage of xss-prone content …".
const findings = output.split(/\r?\n/).filter((line) => /^\S.*\(\d+,\d+\): (error|warning) /.test(line));
const others = findings.filter((line) => !line.startsWith(`${knownBad}(`));

if (findings.length === others.length) {
  console.error(`xss: the XSS scanner did not scan: it did not report ${knownBad} (exit code ${scan.status}).`);
  console.error(`Its output:\n${output || '(none)'}`);
  process.exitCode = 1;
} else if (others.length > 0) {
  const rule = [
    'K601: a child typed string, in no `safe` element; K604: a `safe` with nothing to escape.',
    'node_modules/pagetree/docs/lint.md ("What the scanner reads") says what to write instead.',
  ];
  console.error([`xss: ${others.length} finding(s) of the XSS scanner:`, ...others, ...rule].join('\n  '));
  process.exitCode = 1;
} else {
  console.log(`xss: no XSS findings (the scanner reported ${knownBad}, on purpose, and nothing else)`);
}
