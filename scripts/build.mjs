// npm run build: compiles the package into dist/ from a clean slate, so no stale output ships.
// dist/ is ECMAScript modules; its own package.json says so, while the repository stays CommonJS
// for its tests (jest) and tools.

import { execFileSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
rmSync('dist', { recursive: true, force: true });
execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', 'tsconfig.build.json'], {
  stdio: 'inherit',
});
writeFileSync('dist/package.json', '{ "type": "module", "sideEffects": false }\n');
