import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Absolute path of tools/fake-agent/fake-agent.mjs, found by walking up from this module so it
 * works from `src` (vitest) and from `dist` alike; in an installed package (no repository above
 * it), the copy its build ships in `dist/fake-agent/`. Run it as `[process.execPath, path, ...args]`.
 */
export function fakeAgentScriptPath(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, 'tools', 'fake-agent', 'fake-agent.mjs');
    if (existsSync(candidate)) return candidate;
    const parent = dirname(dir);
    if (parent === dir) {
      const packaged = fileURLToPath(new URL('./fake-agent/fake-agent.mjs', import.meta.url));
      if (existsSync(packaged)) return packaged;
      throw new Error('tools/fake-agent/fake-agent.mjs not found above ' + fileURLToPath(import.meta.url));
    }
    dir = parent;
  }
}

/** argv that runs the scripted fake agent with `args`. */
export function fakeAgentArgv(args: readonly string[] = []): string[] {
  return [process.execPath, fakeAgentScriptPath(), ...args];
}

/**
 * Install the fake agent as an executable named `name` (e.g. `claude`) in `binDir`, the way a
 * real CLI is found on a PATH, and return its path. The daemon then treats it as that runtime
 * (version probe, hook injection) while the scripted fake agent answers.
 */
export function installFakeAgentAs(binDir: string, name = 'claude'): string {
  mkdirSync(binDir, { recursive: true });
  const path = join(binDir, name);
  const [node, script] = fakeAgentArgv();
  writeFileSync(path, `#!/bin/sh\nexec '${node}' '${script}' "$@"\n`);
  chmodSync(path, 0o755);
  return path;
}
