import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { opCatalog } from '@cccc/ipc-protocol';
import { RUNTIME_CATALOG } from '@cccc/pty-runtime';
import { startDaemonFixture, type DaemonFixture } from '../../test-support/daemon-fixture.js';

let fx: DaemonFixture;
beforeAll(async () => {
  fx = await startDaemonFixture();
});
afterAll(async () => {
  await fx?.[Symbol.asyncDispose]();
});

describe('runtime_list (issue 16 extension)', () => {
  it('is advertised in ping.capabilities', async () => {
    const { capabilities } = await fx.client.call('ping', {});
    expect(capabilities).toMatchObject({ runtime_list: true });
  });

  it('lists the whole catalog in its order, with transport and default argv', async () => {
    const result = opCatalog.runtime_list.result.parse(await fx.client.call('runtime_list', {}));
    expect(result.runtimes.map((r) => r.runtime)).toEqual(RUNTIME_CATALOG.map((r) => r.id));
    const custom = result.runtimes.find((r) => r.runtime === 'custom')!;
    expect(custom).toEqual({ runtime: 'custom', installed: false, transport: 'pty', command: [] });
    const codex = result.runtimes.find((r) => r.runtime === 'codex')!;
    expect(codex).toMatchObject({ binary: 'codex', transport: 'pty', command: RUNTIME_CATALOG.find((r) => r.id === 'codex')!.command });
    expect(result.runtimes.find((r) => r.runtime === 'deepseek')).toMatchObject({ transport: 'headless_only' });
  });

  it("reports a CLI as installed when it is on the daemon's PATH", async () => {
    const bin = mkdtempSync(join(tmpdir(), 'cccc-runtime-list-'));
    const claude = join(bin, 'claude');
    writeFileSync(claude, '#!/bin/sh\nexit 0\n');
    chmodSync(claude, 0o755);
    const saved = process.env.PATH;
    // The daemon runs in this process: its PATH is this one.
    process.env.PATH = `${bin}${delimiter}${saved ?? ''}`;
    try {
      const { runtimes } = await fx.client.call('runtime_list', {});
      expect(runtimes.find((r) => r.runtime === 'claude')).toMatchObject({ installed: true, binary: 'claude', path: claude });
    } finally {
      process.env.PATH = saved;
      rmSync(bin, { recursive: true, force: true });
    }
    const { runtimes } = await fx.client.call('runtime_list', {});
    expect(runtimes.find((r) => r.runtime === 'claude')?.path).not.toBe(claude);
  });
});
