// Every TypeScript block of the docs compiles as a reader's project compiles it: each ```ts and ```tsx block of
// docs/*.md and README.md, against the packed package, under the tsconfig `npm create pagetree` writes (strict,
// nodenext) but without its skipLibCheck, so pagetree's own declarations are checked too, with TypeScript 6 and 7.
//
// What the fence says after the language:
//   ```tsx                        a whole module, which imports what it uses (src/block-<line>.tsx)
//   ```tsx title="src/app.tsx"    that file of the doc's project; blocks with the same title are joined in order
//   ```tsx fragment="Layout store"
//                                 a piece of code rather than a module: it gets every export of 'pagetree' (and of its
//                                 feature entries: pagetree/htmx, pagetree/auth, …) it does
//                                 not import itself, the names listed are the reader's own (declared `any`), and a
//                                 block that starts with a method is put in a class whose other members are `any`
//                                 (this.deps, this.taskList)
// Each doc is a project of its own (docs/<doc>/, its own tsc run), so no doc sees another's files or its
// `declare module`. Beside the doc's files, src/ holds what a reader's project has without the doc showing it: the
// module pagetree-embed writes (src/assets.ts) and Bun's and Deno's globals. Errors are reported at the doc's line:
// `docs/forms.md:42:7 TS2304: Cannot find name …`.

import { execFile } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join, posix } from 'node:path';
import { promisify } from 'node:util';
import { packTarball, repoRoot, run, tempDir, toolPackage } from '../support/package.ts';

jest.setTimeout(600_000);

const docs = [...readdirSync(join(repoRoot, 'docs')).map((f) => `docs/${f}`), 'README.md'].filter((f) =>
  f.endsWith('.md'),
);

// Bun's and Deno's globals, for the blocks that start a server there. @types/bun 1.4 does not compile against
// @types/node 20 (or 24) without skipLibCheck, and Deno's types are not on npm: the little the docs call is declared.
const runtimeGlobals = `declare namespace Bun {
  function serve(options: { hostname?: string; port?: number; fetch(req: Request): Response | Promise<Response> }): {
    url: URL;
  };
}
declare namespace Deno {
  function serve(
    options: { hostname?: string; port?: number },
    handler: (req: Request) => Response | Promise<Response>,
  ): { finished: Promise<void> };
}
`;

/**
 * A reader's project: the app `npm create pagetree` writes (its tsconfig: strict, nodenext; tsc runs it with
 * skipLibCheck off), with
 * the packed package and what the docs import beside it installed, and the module `npx pagetree-embed static
 * src/static-files.ts` writes, which the docs import as './assets.ts'.
 * @example docProject(tarball) // → "/tmp/pagetree-docs-x/app" (package.json, node_modules, tsconfig.json, src/…)
 */
function docProject(tarball: string): string {
  const parent = tempDir('docs');
  const scaffolder = packTarball(join(repoRoot, 'create-pagetree'));
  const create = ['exec', '--yes', `--package=${scaffolder}`, '--', 'create-pagetree', 'app', '--no-install'];
  run('npm', [...create, '--pagetree', tarball], parent);
  const dir = join(parent, 'app');
  // Beside the scaffold's dependencies, what the docs import: valibot (forms.md), @jest/globals (testing.md), the
  // engines' clients with their types (scaling.md), so that pagetree/postgres and pagetree/redis take the real ones,
  // OpenTelemetry's API and SDK (observability.md).
  const imported = [
    'valibot',
    '@jest/globals',
    'pg',
    '@types/pg',
    'ioredis',
    '@opentelemetry/api',
    '@opentelemetry/sdk-trace-base',
  ];
  run('npm', ['install', '--no-audit', '--no-fund', ...imported], dir);
  run('npx', ['pagetree-embed', 'static', 'src/static-files.ts'], dir);
  return dir;
}

interface Block {
  lang: string;
  info: string;
  /** The doc's line of the fence, 1-based; the code starts on the next line. */
  line: number;
  lines: string[];
}

function blocks(markdown: string): Block[] {
  const found: Block[] = [];
  let open: Block | null = null;
  markdown.split('\n').forEach((text, i) => {
    if (open) {
      if (text === '```') {
        found.push(open);
        open = null;
      } else open.lines.push(text);
    } else {
      const fence = /^```(\w+)(.*)$/.exec(text);
      if (fence) open = { lang: fence[1]!, info: fence[2]!, line: i + 1, lines: [] };
    }
  });
  return found;
}

/** A generated file and, for each of its lines, the doc line it comes from. */
interface Source {
  path: string;
  lines: string[];
  origin: number[];
}

// The entries a fragment's names come from: the root and its features (issue 42.3).
const entries = [
  'pagetree',
  'pagetree/auth',
  'pagetree/compress',
  'pagetree/forms',
  'pagetree/htmx',
  'pagetree/live',
  'pagetree/observe',
  'pagetree/static',
  'pagetree/testing',
  'pagetree/tree',
];

/**
 * The names the entries export (values and types), each with its entry, from the installed declarations: the names
 * moved out of the root (declared one by one there, deprecated) are taken from their new entry only.
 */
function pagetreeExports(project: string): Export[] {
  const installed = join(project, 'node_modules/pagetree');
  const exportsMap = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')).exports;
  return entries.flatMap((from) => {
    const dts = readFileSync(join(installed, exportsMap[from.replace(/^pagetree/, '.')].types), 'utf8');
    const lists = [...dts.matchAll(/export (?:type )?\{([^}]*)\}/g)].map((m) => m[1]!);
    return lists
      .flatMap((list) =>
        list.split(',').map((n) =>
          n
            .trim()
            .split(/\s+as\s+/)
            .pop()!,
        ),
      )
      .filter(Boolean)
      .map((name) => ({ name, from }));
  });
}

interface Export {
  name: string;
  from: string;
}

/** A fragment as a module: pagetree's exports it does not name itself, the reader's names, and a class if needed. */
function wrapFragment(block: Block, readersNames: string[], exports: Export[]): [string[], string[]] {
  const code = block.lines.join('\n');
  const own = new Set(
    [...code.matchAll(/\b(?:import\s*(?:type\s*)?\{([^}]*)\}|(?:class|function|const|let|interface|type)\s+(\w+))/g)]
      .flatMap((m) => (m[1] ?? m[2]!).split(','))
      .map((n) => n.trim().replace(/^type\s+/, '')),
  );
  const imports = exports.filter((e) => !own.has(e.name) && !readersNames.includes(e.name));
  const before = [...new Set(imports.map((e) => e.from))].map((from) => {
    const names = imports.filter((e) => e.from === from).map((e) => e.name);
    return `import { ${names.join(', ')} } from '${from}';`;
  });
  for (const name of readersNames) before.push(`declare const ${name}: any;`, `type ${name} = any;`);
  const firstCode = block.lines.find((l) => l.trim() !== '' && !l.trim().startsWith('//')) ?? '';
  // A method: `name(…) {` or `async name(…): T {`, not a call (`f(a, {`, `f(a);`) nor `if (…) {`.
  const method = /^(async\s+)?(?!(if|for|while|switch)\b)\w+\s*\(.*\)\s*(:[^{]+)?\{\s*(\/\/.*)?$/;
  const members = method.test(firstCode);
  if (!members) return [before, []];
  return [[...before, 'class Fragment {', '[member: string]: any;'], ['}']];
}

/** The doc's blocks as the files of its project, relative to the project's folder. */
function sources(markdown: string, exports: Export[]): Source[] {
  const files = new Map<string, Source>();
  for (const block of blocks(markdown).filter((b) => b.lang === 'ts' || b.lang === 'tsx')) {
    const title = /\btitle="([^"]+)"/.exec(block.info)?.[1];
    const fragment = /\bfragment(?:="([^"]*)")?/.exec(block.info);
    const path = title ?? `src/block-${block.line}.${block.lang}`;
    const source = files.get(path) ?? { path, lines: [], origin: [] };
    files.set(path, source);
    const [before, after] = fragment
      ? wrapFragment(block, (fragment[1] ?? '').split(/\s+/).filter(Boolean), exports)
      : [[], []];
    const add = (lines: string[], line: (i: number) => number) =>
      lines.forEach((text, i) => {
        source.lines.push(text);
        source.origin.push(line(i));
      });
    add(before, () => block.line);
    add(block.lines, (i) => block.line + 1 + i);
    add(after, () => block.line + block.lines.length + 1);
  }
  return [...files.values()];
}

/** The folder of a doc's project: docs/forms.md → docs/forms, README.md → docs/README. */
const folderOf = (doc: string) => join('docs', doc.replace(/^docs\//, '').replace(/\.md$/, ''));

let project: string;
let tarball: string;
/** Generated file (relative to the project) → the doc and, per line, the doc's line. */
const origins = new Map<string, { doc: string; origin: number[] }>();

beforeAll(() => {
  tarball = packTarball();
  project = docProject(tarball);
  const exports = pagetreeExports(project);
  const assets = readFileSync(join(project, 'src/static-files.ts'), 'utf8');
  for (const doc of docs) {
    const folder = folderOf(doc);
    const files = sources(readFileSync(join(repoRoot, doc), 'utf8'), exports);
    files.push(
      { path: 'src/runtime-globals.d.ts', lines: runtimeGlobals.split('\n'), origin: [] },
      { path: 'src/assets.ts', lines: assets.split('\n'), origin: [] },
    );
    for (const file of files) {
      mkdirSync(dirname(join(project, folder, file.path)), { recursive: true });
      writeFileSync(join(project, folder, file.path), file.lines.join('\n') + '\n');
      origins.set(join(folder, file.path), { doc, origin: file.origin });
    }
    // The scaffold's tsconfig; a file the doc puts beside src/ (eslint.config.mts) is compiled too.
    const outside = files.map((f) => f.path).filter((p) => !p.startsWith('src/'));
    writeFileSync(
      join(project, folder, 'tsconfig.json'),
      JSON.stringify({ extends: '../../tsconfig.json', include: ['src', ...outside] }),
    );
  }
});

/** tsc's errors, each at the doc's line where the generated file has one: `docs/x.md:12:5 TS2304: …`. */
function atDocLines(output: string): string[] {
  const errors: string[] = [];
  for (const text of output.split('\n')) {
    const m = /^(.+?)\((\d+),(\d+)\): error (TS\d+): (.*)$/.exec(text);
    if (!m) {
      if (text.trim() !== '' && errors.length > 0 && /^\s/.test(text)) errors[errors.length - 1] += '\n' + text;
      else if (text.trim() !== '') errors.push(text);
      continue;
    }
    const [file, line, column, code, message] = m.slice(1) as [string, string, string, string, string];
    const at = origins.get(file);
    // Past a file's last line (tsc's end of file) is its last block's end.
    const docLine = at?.origin[Number(line) - 1] ?? at?.origin.at(-1);
    const where = at && docLine !== undefined ? `${at.doc}:${docLine}` : `${file}:${line}`;
    errors.push(`${where}:${column} ${code}: ${message}`);
  }
  return errors;
}

/** Runs tsc on each doc's project, a few at a time; the errors of all, at the docs' lines. */
async function compile(tsc: string): Promise<string[]> {
  const queue = docs.map(folderOf);
  const errors: string[] = [];
  const worker = async () => {
    for (let folder = queue.shift(); folder; folder = queue.shift()) {
      const tsconfigPath = join(folder, 'tsconfig.json');
      try {
        await promisify(execFile)(
          process.execPath,
          [tsc, '-p', tsconfigPath, '--pretty', 'false', '--skipLibCheck', 'false'],
          {
            cwd: project,
            maxBuffer: 64 << 20,
          },
        );
      } catch (err) {
        const e = err as { stdout?: string; stderr?: string; message: string };
        const found = atDocLines(e.stdout ?? '');
        errors.push(...(found.length > 0 ? found : [`${folder}: tsc failed: ${e.message}\n${e.stderr ?? ''}`]));
      }
    }
  };
  await Promise.all(Array.from({ length: availableParallelism() }, worker));
  return errors.sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
}

const compilers: [string, () => string][] = [
  ['TypeScript 6', () => join(project, 'node_modules/typescript/bin/tsc')], // the new app's own
  ['TypeScript 7', () => join(toolPackage('typescript', '7.0.2'), 'bin/tsc')],
];

test.each(compilers)('every TypeScript block of the docs compiles with %s', async (_name, tsc) => {
  const errors = await compile(tsc());
  if (errors.length > 0) throw new Error(`the docs' TypeScript has ${errors.length} errors:\n${errors.join('\n')}`);
});

/**
 * The relative links of a Markdown text (outside code blocks and code spans), each with its line: `[text](path#x)`.
 * @example relativeLinks('See [forms](forms.md#x).') // → [{ link: 'forms.md#x', line: 1 }]
 */
function relativeLinks(markdown: string): { link: string; line: number }[] {
  const found: { link: string; line: number }[] = [];
  let fenced = false;
  markdown.split('\n').forEach((text, i) => {
    if (/^```/.test(text)) fenced = !fenced;
    if (fenced) return;
    for (const m of text.replace(/`[^`]*`/g, '').matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      const link = m[1]!;
      // Another site (https:, mailto:), or a place on this page.
      if (!/^[a-z][a-z0-9+.-]*:/i.test(link) && !link.startsWith('#')) found.push({ link, line: i + 1 });
    }
  });
  return found;
}

// Issue 45.6: the installed docs linked to files the package does not ship (../bench/README.md, the repository's
// tests). Every relative link of a shipped doc must name a file or folder of the packed tarball.
test('every relative link of the shipped docs resolves inside the packed package', () => {
  const shipped = run('tar', ['-tzf', tarball], repoRoot)
    .split('\n')
    .filter(Boolean)
    .map((path) => path.replace(/^package\//, ''));
  const present = new Set(
    shipped.flatMap((path) => path.split('/').map((_, i, parts) => parts.slice(0, i + 1).join('/'))),
  );
  const docsShipped = shipped.filter((path) => /^docs\/.*\.(md|txt)$/.test(path));
  expect(docsShipped).toEqual(expect.arrayContaining(['docs/getting-started.md', 'docs/llms.txt']));
  const broken: string[] = [];
  for (const doc of docsShipped) {
    for (const { link, line } of relativeLinks(readFileSync(join(repoRoot, doc), 'utf8'))) {
      const target = posix.normalize(posix.join(posix.dirname(doc), decodeURI(link.split('#')[0]!)));
      if (!present.has(target.replace(/\/$/, '')))
        broken.push(`${doc}:${line}: ${link} (${target} is not in the package)`);
    }
  }
  expect(broken).toEqual([]);
});
