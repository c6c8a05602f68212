// What an editor shows for a name that moved out of the root entry (issue 42.3): `import { hxTrigger } from
// 'pagetree'` is struck through (TypeScript's suggestion 6385, "'hxTrigger' is deprecated") and its hover says where
// it lives now; the same name from its new entry, and the names the root keeps, are not. Asked of TypeScript's
// language service, the one editors run, over the sources as this repository's tsconfig maps 'pagetree/*'.

import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import ts from 'typescript';

const root = resolve(__dirname, '../..');

// The names the root keeps for one minor version, each with the entry its tag names.
const moved = [
  ...readFileSync(join(root, 'core/index.ts'), 'utf8').matchAll(
    /\/\*\* @deprecated Import from '(pagetree\/[a-z]+)'\. \*\/\nexport (?:const|type) (\w+)/g,
  ),
].map((m) => ({ name: m[2]!, subpath: m[1]! }));
const names = [...new Set(moved.map((m) => m.name))];

/** A language service over the repository's sources plus the given files (path relative to the root → text). */
function languageService(files: Record<string, string>): ts.LanguageService {
  const config = ts.getParsedCommandLineOfConfigFile(
    join(root, 'tsconfig.json'),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      },
    },
  )!;
  const virtual = new Map(Object.entries(files).map(([path, text]) => [join(root, path), text]));
  const host: ts.LanguageServiceHost = {
    getScriptFileNames: () => [...virtual.keys()],
    getScriptVersion: () => '1',
    getScriptSnapshot: (path) => {
      const text = virtual.get(path) ?? ts.sys.readFile(path);
      return text === undefined ? undefined : ts.ScriptSnapshot.fromString(text);
    },
    getCurrentDirectory: () => root,
    getCompilationSettings: () => ({ ...config.options, plugins: [] }),
    getDefaultLibFileName: (options) => ts.getDefaultLibFilePath(options),
    fileExists: (path) => virtual.has(path) || ts.sys.fileExists(path),
    readFile: (path) => virtual.get(path) ?? ts.sys.readFile(path),
    readDirectory: ts.sys.readDirectory,
    directoryExists: ts.sys.directoryExists,
    getDirectories: ts.sys.getDirectories,
  };
  return ts.createLanguageService(host);
}

/** The names an editor strikes through in a file: suggestions 6385 and 6387, by the text they cover. */
function struckThrough(service: ts.LanguageService, path: string): string[] {
  const text = readFileFrom(service, path);
  return service
    .getSuggestionDiagnostics(join(root, path))
    .filter((d) => d.code === 6385 || d.code === 6387)
    .map((d) => text.slice(d.start!, d.start! + d.length!));
}

function readFileFrom(service: ts.LanguageService, path: string): string {
  return service.getProgram()!.getSourceFile(join(root, path))!.text;
}

const fromRoot = `import { ${names.join(', ')}, ServeMux, mount, type PageRequest } from 'pagetree';\n`;
const fromEntries = [...new Set(moved.map((m) => m.subpath))]
  .map((subpath) => {
    const list = [...new Set(moved.filter((m) => m.subpath === subpath).map((m) => m.name))];
    return `import { ${list.join(', ')} } from '${subpath}';\n`;
  })
  .join('');
const service = languageService({
  '__tests__/types/moved-from-root.ts': fromRoot,
  '__tests__/types/moved-to-entries.ts': fromEntries,
});

test('the root entry still exports every moved name, so the old imports compile', () => {
  expect(names.length).toBeGreaterThan(60);
  const program = service.getProgram()!;
  const errors = ['moved-from-root.ts', 'moved-to-entries.ts'].flatMap((f) =>
    ts
      .getPreEmitDiagnostics(program, program.getSourceFile(join(root, '__tests__/types', f)))
      .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n')),
  );
  expect(errors).toEqual([]);
});

test("an editor strikes through each moved name imported from 'pagetree', and nothing the root keeps", () => {
  const struck = struckThrough(service, '__tests__/types/moved-from-root.ts');
  expect(struck.sort()).toEqual([...names].sort());
  expect(struck).not.toContain('ServeMux');
  expect(struck).not.toContain('PageRequest');
});

test('hovering a moved name says which entry to import it from; from that entry it is not struck through', () => {
  const path = join(root, '__tests__/types/moved-from-root.ts');
  for (const { name, subpath } of moved) {
    const info = service.getQuickInfoAtPosition(path, fromRoot.indexOf(` ${name},`) + 1);
    const tags = (info?.tags ?? []).filter((t) => t.name === 'deprecated').map((t) => ts.displayPartsToString(t.text));
    expect([name, [...new Set(tags)]]).toEqual([name, [`Import from '${subpath}'.`]]);
  }
  expect(struckThrough(service, '__tests__/types/moved-to-entries.ts')).toEqual([]);
});
