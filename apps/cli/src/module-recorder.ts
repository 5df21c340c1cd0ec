import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

// Test helper (not bundled): which packages a real `cccc` process loads. A `--require` preload
// logs every CommonJS require and registers an ESM load hook that logs every imported URL, so
// both module systems land in one file; at exit it adds node's own modules the process loaded.

export interface ModuleRecorder {
  /** Pass as `--require <preload>` (or in NODE_OPTIONS). */
  readonly preload: string;
  /** The packages (`zod`, `@scope/name`) the recorded processes loaded so far. */
  packages(): Set<string>;
  /** The raw lines: `require <id>`, `import <url>` and `builtin <name>`. */
  lines(): string[];
  /** Node's own modules (`child_process`, `internal/fs/promises`) the recorded processes loaded. */
  builtins(): Set<string>;
}

/** A recorder writing its scripts and its log into `dir`. */
export function moduleRecorder(dir: string): ModuleRecorder {
  const log = join(dir, 'loaded.txt');
  writeFileSync(log, '');
  const hooks = join(dir, 'record-hooks.mjs');
  writeFileSync(hooks, `import { appendFileSync } from 'node:fs';\nexport async function load(url, context, next) {\n  appendFileSync(${JSON.stringify(log)}, 'import ' + url + '\\n');\n  return next(url, context);\n}\n`);
  const preload = join(dir, 'record.cjs');
  writeFileSync(
    preload,
    `const Module = require('node:module');\nconst { appendFileSync } = require('node:fs');\nconst { pathToFileURL } = require('node:url');\nconst load = Module._load;\nModule._load = function (request, parent, isMain) {\n  appendFileSync(${JSON.stringify(log)}, 'require ' + request + '\\n');\n  return load.apply(this, arguments);\n};\nModule.register(pathToFileURL(${JSON.stringify(hooks)}).href);\nprocess.on('exit', () => appendFileSync(${JSON.stringify(log)}, process.moduleLoadList.filter((m) => m.startsWith('NativeModule ')).map((m) => 'builtin ' + m.slice('NativeModule '.length) + '\\n').join('')));\n`,
  );
  const lines = (): string[] => readFileSync(log, 'utf8').split('\n').filter(Boolean);
  return {
    preload,
    lines,
    packages: () => new Set(lines().map(packageOf).filter((p): p is string => p !== undefined)),
    builtins: () => new Set(lines().filter((l) => l.startsWith('builtin ')).map((l) => l.slice('builtin '.length))),
  };
}

/** The package a recorded line names: `require <id>` or `import <url>` under node_modules. */
function packageOf(line: string): string | undefined {
  const [how, what = ''] = line.split(' ');
  if (how === 'builtin') return undefined;
  if (how === 'require') return what.startsWith('.') || what.startsWith('/') || what.startsWith('node:') ? undefined : what.split('/').slice(0, what.startsWith('@') ? 2 : 1).join('/');
  const at = what.lastIndexOf('/node_modules/');
  if (at < 0) return undefined;
  const parts = what.slice(at + '/node_modules/'.length).split('/');
  return parts.slice(0, parts[0]!.startsWith('@') ? 2 : 1).join('/');
}
