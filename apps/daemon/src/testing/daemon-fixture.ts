import { mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DaemonClient } from '@cccc/ipc-protocol/node';
import { daemonConfigFromEnv } from '../config.js';
import { startDaemon, type RunningDaemon } from '../daemon.js';

/** A real daemon on a temp home, over its unix socket, for op tests. */
export interface DaemonFixture extends AsyncDisposable {
  readonly home: string;
  readonly daemon: RunningDaemon;
  readonly client: DaemonClient;
  /** Raw ledger lines of a group (what is really on disk). */
  ledgerLines(groupId: string): string[];
}

export interface DaemonFixtureOptions {
  readonly home?: string;
  readonly env?: NodeJS.ProcessEnv;
  /** The CLI entry agents' hooks and MCP server run (`DaemonConfig.cliEntry`); none by default. */
  readonly cliEntry?: string;
}

export async function startDaemonFixture(options: DaemonFixtureOptions = {}): Promise<DaemonFixture> {
  const home = options.home ?? mkdtempSync(join(tmpdir(), 'cccc-ops-'));
  const config = daemonConfigFromEnv({ ...options.env, CCCC_HOME: home });
  const daemon = await startDaemon(options.cliEntry ? { ...config, cliEntry: options.cliEntry } : config);
  const client = new DaemonClient({ home });
  return {
    home,
    daemon,
    client,
    ledgerLines(groupId) {
      const path = join(home, 'groups', groupId, 'ledger.jsonl');
      return existsSync(path) ? readFileSync(path, 'utf8').split('\n').filter(Boolean) : [];
    },
    async [Symbol.asyncDispose]() {
      await daemon.stop();
      rmSync(home, { recursive: true, force: true });
    },
  };
}
