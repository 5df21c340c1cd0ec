// Issue 20, point 3: every open ran SQLite's quick_check, a read of every page of the index
// (~100 ms and the page cache of it at 200k events), before the first read was answered. The
// check now runs only when the index was not closed cleanly by every connection since the last
// one: after a kill -9 (a real one here), or while another connection is open.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openGroupLedger } from '../open-ledger.js';
import { ensureDist } from '../test-support/dist.js';
import { TempHomes } from '../test-support/homes.js';
import { LedgerIndex } from './ledger-index.js';

const homes = new TempHomes();
afterEach(() => homes.cleanup());
let root = '';
beforeAll(() => {
  root = ensureDist();
}, 120_000);
const G = 'g_opencheck001';
const ledgerDir = (home: string) => join(home, 'groups', G, 'state/ledger');
const indexPath = (home: string) => join(ledgerDir(home), 'ts-index.sqlite3');
const markers = (home: string) => readdirSync(ledgerDir(home)).filter((n) => n.startsWith('ts-index.sqlite3.open-'));

async function seed(home: string): Promise<void> {
  await using store = await openGroupLedger({ home, groupId: G });
  for (let i = 0; i < 3; i++) await store.append({ kind: 'chat.message', by: 'user', data: { text: `m${i}`, message_mode: 'mail', to: ['peer1'] } });
}

/** Append in a child process and kill -9 it after `lines` acknowledged appends. */
function appendThenKill(home: string, lines: number): Promise<NodeJS.Signals | null> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(root, 'test-fixtures', 'append-loop.mjs'), home, G, '2'], { stdio: ['ignore', 'pipe', 'inherit'] });
    let seen = 0;
    child.stdout.on('data', (d) => {
      seen += String(d).split('\n').length - 1;
      if (seen >= lines) child.kill('SIGKILL');
    });
    child.on('error', reject);
    child.on('exit', (_code, signal) => resolve(signal));
  });
}

describe('the index integrity check at open', () => {
  it('is skipped after every connection closed cleanly, and the open is marked until its close', async () => {
    const home = homes.make();
    await seed(home);
    expect(markers(home)).toEqual([]);
    expect(existsSync(`${indexPath(home)}.clean`)).toBe(true);
    const { index } = LedgerIndex.open(indexPath(home));
    expect(index.checkedAtOpen).toBe(false);
    expect(markers(home)).toHaveLength(1);
    expect(existsSync(`${indexPath(home)}.clean`)).toBe(false);
    // A second connection while the first is open checks: the first may die at any moment.
    const second = LedgerIndex.open(indexPath(home)).index;
    expect(second.checkedAtOpen).toBe(true);
    second.close();
    expect(existsSync(`${indexPath(home)}.clean`)).toBe(false);
    index.close();
    expect(markers(home)).toEqual([]);
    expect(existsSync(`${indexPath(home)}.clean`)).toBe(true);
  });

  it('runs after a kill -9, then the dead process is forgotten and the next clean close skips it again', async () => {
    const home = homes.make();
    await seed(home);
    expect(await appendThenKill(home, 200)).toBe('SIGKILL');
    expect(markers(home)).toHaveLength(1); // the killed process's, never removed
    const after = LedgerIndex.open(indexPath(home)).index;
    expect(after.checkedAtOpen).toBe(true);
    expect(markers(home)).toHaveLength(1); // its own: the dead one was forgotten after the check
    after.close();
    {
      await using store = await openGroupLedger({ home, groupId: G });
      expect([...store.readForward()].length).toBeGreaterThanOrEqual(203);
    }
    const { index } = LedgerIndex.open(indexPath(home));
    expect(index.checkedAtOpen).toBe(false);
    index.close();
  });

  it('runs on an index of an older version (no clean stamp)', async () => {
    const home = homes.make();
    await seed(home);
    rmSync(`${indexPath(home)}.clean`);
    const { index } = LedgerIndex.open(indexPath(home));
    expect(index.checkedAtOpen).toBe(true);
    index.close();
  });
});
