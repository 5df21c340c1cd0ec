import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useDaemonHome } from './e2e-harness.js';
import { moduleRecorder, type ModuleRecorder } from './module-recorder.js';

// A `cccc` command loads only what it runs (issue 35, cold paths): the full CLI is one CommonJS
// bundle (dist/cli.cjs) with the libraries it calls and prints with inlined, so such a command
// starts no ESM loader, and none of them loads zod, the op catalog's schemas or the flock addon
// (zod and the schemas were most of a command's start-up). The commands run as users run them,
// through the bin shim, each a real process against a real daemon.

const h = useDaemonHome();
let dir = '';
let recorder: ModuleRecorder;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'cccc-cli-footprint-'));
  recorder = moduleRecorder(dir);
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('a full-CLI command', () => {
  it('reads, switches the active group, fails and helps as CommonJS, without zod, the schemas or the flock addon', async () => {
    const { group_id: gid } = await h.json<{ group_id: string }>(['group', 'create', '--title', 'footprint']);
    const recorded = { NODE_OPTIONS: `--require ${recorder.preload}` };
    const runs = [
      await h.cccc(['use', gid], recorded),
      await h.cccc(['actor', 'list'], recorded),
      await h.cccc(['group', 'show', gid, '--json'], recorded),
      await h.cccc(['groups'], recorded),
      await h.cccc(['daemon', 'status'], recorded),
      await h.cccc(['--help'], recorded),
    ];
    expect(runs.map((r) => r.code)).toEqual([0, 0, 0, 0, 0, 0]);
    expect(JSON.parse(runs[2]!.stdout)).toMatchObject({ group: { group_id: gid } });
    const failed = await h.cccc(['actor', 'list', '--group', 'g_nope'], recorded);
    expect(failed).toMatchObject({ code: 1, stderr: expect.stringMatching(/^error: group_not_found: /) });

    // The recorder saw the full CLI load (run from its code cache by bin/code-cache.js), so what is
    // missing below was not loaded.
    expect(recorder.lines()).toContain('require ./code-cache.js');
    // Issue 35: its calls go over libuv's pipe handle (ipc-protocol's one-shot-exchange.ts).
    expect(recorder.lines()).not.toContain('require net');
    const loaded = recorder.packages();
    expect(['zod', 'fs-ext', 'commander'].filter((p) => loaded.has(p))).toEqual([]);
    expect(recorder.lines().filter((l) => l.startsWith('import '))).toEqual([]);
  });

  it('a read loads none of the node modules only other commands use', async () => {
    const { group_id: gid } = await h.json<{ group_id: string }>(['group', 'create', '--title', 'footprint']);
    const reads = moduleRecorder(mkdtempSync(join(dir, 'reads-')));
    const recorded = { NODE_OPTIONS: `--require ${reads.preload}` };
    expect((await h.cccc(['actor', 'list', '--group', gid], recorded)).code).toBe(0);
    expect((await h.cccc(['group', 'show', gid], recorded)).code).toBe(0);
    const builtins = reads.builtins();
    expect(builtins).toContain('vm'); // the code cache's: the recorder saw the full CLI
    // child_process (commander loads it to spawn executable subcommands; starting a daemon), and
    // the promise APIs of fs (with the readline and watcher modules they load) and of timers
    // (writes and lock waits).
    const unused = ['child_process', 'dgram', 'internal/fs/promises', 'internal/readline/interface', 'timers/promises'];
    expect(unused.filter((m) => builtins.has(m))).toEqual([]);
    // node:module (parts of the ES module loader; the flock addon's first lock). The preload loads
    // it itself, so the check is that the CLI never asks for it.
    expect(reads.lines().filter((l) => /^require (node:)?module$/.test(l))).toEqual([]);
  });
});
