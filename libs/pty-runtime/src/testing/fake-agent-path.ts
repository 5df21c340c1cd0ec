import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Absolute path of tools/fake-agent/fake-agent.mjs, found by walking up from this module so it
 * works from `src` (vitest) and from `dist` alike. Run it as `[process.execPath, path, ...args]`.
 */
export function fakeAgentScriptPath(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, 'tools', 'fake-agent', 'fake-agent.mjs');
    if (existsSync(candidate)) return candidate;
    const parent = dirname(dir);
    if (parent === dir) throw new Error('tools/fake-agent/fake-agent.mjs not found above ' + fileURLToPath(import.meta.url));
    dir = parent;
  }
}

/** argv that runs the scripted fake agent with `args`. */
export function fakeAgentArgv(args: readonly string[] = []): string[] {
  return [process.execPath, fakeAgentScriptPath(), ...args];
}
