// `npm run xss`: runs @kitajs/ts-html-plugin's xss-scan over the project
// (tsconfig.json: core, pages-example, __tests__, …) and fails unless
//
//   1. the known-bad fixture is reported: the scanner can crash and still exit 0
//      (its CLI ends in `main().catch(console.error)`), so a quiet run proves nothing;
//   2. nothing else is reported: every finding is listed with its location.

import { spawnSync } from 'node:child_process';
import { relative, resolve } from 'node:path';

const root = resolve(__dirname, '..');
const knownBad = '__tests__/xss/known-bad.tsx';
const cli = require.resolve('@kitajs/ts-html-plugin/dist/cli.js');

interface Finding {
  file: string;
  line: string;
  text: string;
}

// --simplified prints one plain line per diagnostic: "path(line,col): error TS0 K601: message".
const diagnosticLine = /^(.+?)\((\d+),\d+\): ((?:error|warning) .*)$/;

function parseFindings(output: string): Finding[] {
  const findings: Finding[] = [];
  for (const line of output.split(/\r?\n/)) {
    const m = diagnosticLine.exec(line.trim());
    if (m) findings.push({ file: relative(root, resolve(root, m[1]!)), line: m[2]!, text: m[3]! });
  }
  return findings;
}

function main(): number {
  const run = spawnSync(process.execPath, [cli, '--project', 'tsconfig.json', '--simplified'], {
    cwd: root,
    encoding: 'utf8',
  });
  const output = `${run.stdout ?? ''}${run.stderr ?? ''}`.trim();
  const findings = parseFindings(output);
  const ours = findings.filter((f) => f.file === knownBad);
  const others = findings.filter((f) => f.file !== knownBad);
  if (ours.length === 0) {
    console.error(
      `xss: the XSS scanner did not scan: it did not report the known-bad fixture ${knownBad} ` +
        `(exit code ${run.status ?? run.signal}). Its output:\n${output || '(none)'}`,
    );
    return 1;
  }
  if (others.length > 0) {
    console.error(
      `xss: ${others.length} finding(s) of the XSS scanner; escape the value (add \`safe\`) or fix the type:`,
    );
    for (const f of others) console.error(`  ${f.file}:${f.line}  ${f.text}`);
    return 1;
  }
  console.log(`xss: clean (the scanner reported the known-bad fixture ${knownBad} and nothing else)`);
  return 0;
}

process.exitCode = main();
