import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fakeAgentArgv } from '@cccc/pty-runtime/testing';

// Test support: an executable named like the real agent CLI (`claude` or `codex`) that is the
// fake agent playing that agent, so the daemon injects, probes and fences it like the real one.

const q = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

export function agentShim(dir: string, as: 'claude' | 'codex', options: { args?: string[]; env?: Record<string, string> } = {}): string {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, as);
  const [node, script] = fakeAgentArgv();
  const env = Object.entries(options.env ?? {}).map(([k, v]) => `export ${k}=${q(v)}\n`).join('');
  const args = ['--as', as, ...(options.args ?? [])].map(q).join(' ');
  writeFileSync(path, `#!/bin/sh\n${env}exec ${q(node!)} ${q(script!)} ${args} "$@"\n`);
  chmodSync(path, 0o755);
  return path;
}
