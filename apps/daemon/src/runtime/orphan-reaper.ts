import { rmSync } from 'node:fs';
import type { HomeLayout } from '@cccc/groups';
import type { Logger } from '../log.js';
import { listOwnershipRecords } from './ownership-records.js';
import { isSameProcess, signalGroup } from './proc-identity.js';

export interface ReapReport {
  /** Live process groups left by a previous daemon, now ended. */
  readonly killed: Array<{ group_id: string; actor_id: string; pid: number }>;
  /** Records whose process was gone or was another process (pid reused): removed, never signalled. */
  readonly discarded: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Daemon start: every ownership record is checked by identity (pid plus start time). A live
 * orphan gets SIGTERM on its process group, SIGKILL after `graceMs`; anything else is left alone.
 * Each record is removed either way, since no process of ours can still match it.
 */
export async function reapOrphans(layout: HomeLayout, logger: Logger, graceMs: number): Promise<ReapReport> {
  const killed: ReapReport['killed'] = [];
  let discarded = 0;
  for (const { path, record } of listOwnershipRecords(layout)) {
    if (record && isSameProcess(record.pid, record.pid_start_time)) {
      signalGroup(record.pid, 'SIGTERM');
      const deadline = Date.now() + graceMs;
      while (Date.now() < deadline && isSameProcess(record.pid, record.pid_start_time)) await sleep(25);
      // A stubborn leader, or helpers that ignored SIGTERM: the pgid cannot be reused while any
      // member lives, so this reaches only what the orphan left behind.
      signalGroup(record.pid, 'SIGKILL');
      killed.push({ group_id: record.group_id, actor_id: record.actor_id, pid: record.pid });
    } else {
      discarded++;
    }
    rmSync(path, { force: true });
  }
  if (killed.length > 0) logger.log('warn', 'retired actor processes left by a previous daemon', { killed });
  if (discarded > 0) logger.log('info', 'removed stale ownership records', { count: discarded });
  return { killed, discarded };
}
