// pagetree-dev (issue 45.14), on a small project of its own: the type checker's findings show in the terminal as
// they happen while the server keeps restarting (tsx and Bun strip types unchecked), and under Bun a change to
// static/ or .env restarts the server, which `bun --watch` alone does not (it watches only imported modules).
// The example app's dev loop under tsx is __tests__/dev-loop.test.ts.

import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { freePort, serveProcess, tempDir, toolPackage, type Served } from './support/package.ts';

jest.setTimeout(180_000);

const root = resolve(__dirname, '..');
const tsx = join(root, 'node_modules/tsx/dist/cli.mjs');
const devCli = join(root, 'core/bin/dev-cli.ts');

// Answers what it read at start: the message module, static/app.css and GREETING (Bun loads .env itself).
const mainTs = `import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { message } from './message.ts';

const css = readFileSync('static/app.css', 'utf8').trim();
const body = \`\${String(message)} | \${css} | \${process.env.GREETING ?? '-'}\`;
const port = Number(process.env.PORT);
createServer((_req, res) => res.end(body)).listen(port, '127.0.0.1', () => {
  console.log(\`listening on http://127.0.0.1:\${port}\`);
});
`;

function project(): string {
  const dir = tempDir('dev-cli');
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'));
  mkdirSync(join(dir, 'src'));
  mkdirSync(join(dir, 'static'));
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'dev-cli-test', private: true, type: 'module' }));
  const compilerOptions = {
    strict: true,
    noEmit: true,
    target: 'ES2022',
    module: 'nodenext',
    allowImportingTsExtensions: true,
    types: ['node'],
    skipLibCheck: true,
  };
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions, include: ['src'] }));
  writeFileSync(join(dir, 'src/main.ts'), mainTs);
  writeFileSync(join(dir, 'src/message.ts'), "export const message: string = 'hello';\n");
  writeFileSync(join(dir, 'static/app.css'), 'body { color: black; }');
  return dir;
}

async function text(url: string): Promise<string | null> {
  try {
    return await (await fetch(url)).text();
  } catch {
    return null; // restarting
  }
}

async function until<T>(probe: () => T | Promise<T>, ok: (v: T) => boolean, ms = 90_000): Promise<T> {
  const end = Date.now() + ms;
  let v = await probe();
  while (!ok(v) && Date.now() < end) {
    await new Promise((r) => setTimeout(r, 200));
    v = await probe();
  }
  return v;
}

async function devServer(dir: string, args: string[], path = process.env.PATH): Promise<Served> {
  const port = await freePort();
  return serveProcess(process.execPath, [tsx, devCli, ...args], dir, { PORT: String(port), PATH: path }, 90_000);
}

describe('under tsx', () => {
  let dir: string;
  let dev: Served;
  beforeAll(async () => {
    dir = project();
    dev = await devServer(dir, ['src/main.ts']);
  });
  afterAll(() => dev?.stop());

  test('a type error is printed as it happens, the server restarts all the same, and the fix is reported', async () => {
    // The first check of the unchanged project ends clean.
    await until(dev.output, (out) => out.includes('pagetree-dev: types: no errors'));
    writeFileSync(join(dir, 'src/message.ts'), 'export const message: string = 42;\n');
    expect(
      await until(
        () => text(dev.url),
        (body) => body?.startsWith('42 |') ?? false,
      ),
    ).toMatch(/^42 \|/);
    const found = await until(dev.output, (out) => out.includes('pagetree-dev: types: 1 error'));
    expect(found).toMatch(/src\/message\.ts\(1,14\): error TS2322: Type 'number' is not assignable to type 'string'/);
    expect(found).toContain('pagetree-dev: types: 1 error (the server runs anyway: tsx and Bun do not check types)');
    expect(found).not.toMatch(/Starting compilation|File change detected/);

    const before = dev.output().length;
    writeFileSync(join(dir, 'src/message.ts'), "export const message: string = 'fixed';\n");
    const after = await until(
      () => dev.output().slice(before),
      (out) => out.includes('pagetree-dev: types: no errors'),
    );
    expect(after).toContain('pagetree-dev: types: no errors');
    expect(
      await until(
        () => text(dev.url),
        (body) => body?.startsWith('fixed |') ?? false,
      ),
    ).toMatch(/^fixed \|/);
  });
});

describe('under Bun (--runtime bun)', () => {
  let dir: string;
  let dev: Served;
  beforeAll(async () => {
    dir = project();
    const bin = join(toolPackage('bun', '1.4.5'), '../.bin');
    dev = await devServer(dir, ['--runtime', 'bun', '--no-check', 'src/main.ts'], `${bin}:${process.env.PATH}`);
  });
  afterAll(() => dev?.stop());

  test('a changed static file restarts the server', async () => {
    expect(await text(dev.url)).toBe('hello | body { color: black; } | -');
    writeFileSync(join(dir, 'static/app.css'), 'body { color: red; }');
    const body = await until(
      () => text(dev.url),
      (b) => b?.includes('red') ?? false,
    );
    expect(body).toBe('hello | body { color: red; } | -');
  });

  test('a changed .env restarts the server, which reads it', async () => {
    writeFileSync(join(dir, '.env'), 'GREETING=from-env\n');
    const body = await until(
      () => text(dev.url),
      (b) => b?.endsWith('from-env') ?? false,
    );
    expect(body).toBe('hello | body { color: red; } | from-env');
  });

  test('a changed module restarts it as before (bun --watch)', async () => {
    writeFileSync(join(dir, 'src/message.ts'), "export const message: string = 'bun';\n");
    const body = await until(
      () => text(dev.url),
      (b) => b?.startsWith('bun |') ?? false,
    );
    expect(body).toBe('bun | body { color: red; } | from-env');
  });
});
