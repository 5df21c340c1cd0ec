import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HomeLayout } from '@cccc/groups';
import { afterEach, expect, it } from 'vitest';
import { markStartupPromptSent, readManagedReceipt, receiptMatches, removeManagedReceipt, writeManagedReceipt, type ManagedReceipt } from './managed-receipt.js';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

const identity = { runtime: 'codex' as const, cwd: '/w', command: ['codex', '-c', 'a=1'], actor_generation: 'g1', storage: '/h/.codex' };
const receipt: ManagedReceipt = { v: 2, ...identity, session_id: 't1', created_at: 'now' };

it('a v2 receipt round-trips and is resumed only when runtime, workspace, command, generation and storage all match', () => {
  const home = mkdtempSync(join(tmpdir(), 'cccc-receipt-'));
  dirs.push(home);
  const layout = new HomeLayout(home);
  expect(readManagedReceipt(layout, 'g', 'a')).toBeUndefined();
  writeManagedReceipt(layout, 'g', 'a', receipt);
  const read = readManagedReceipt(layout, 'g', 'a');
  expect(read).toEqual(receipt);
  expect(receiptMatches(read, identity)).toBe(true);
  for (const change of [{ cwd: '/x' }, { command: ['codex'] }, { command: ['codex', '-c', 'a=2'] }, { actor_generation: 'g2' }, { storage: '/o' }]) {
    expect(receiptMatches(read, { ...identity, ...change })).toBe(false);
  }
  removeManagedReceipt(layout, 'g', 'a');
  expect(readManagedReceipt(layout, 'g', 'a')).toBeUndefined();
});

it('a legacy or malformed receipt is never resumed', () => {
  const home = mkdtempSync(join(tmpdir(), 'cccc-receipt-'));
  dirs.push(home);
  const layout = new HomeLayout(home);
  const dir = join(layout.groupDir('g'), 'state', 'runners', 'managed');
  mkdirSync(dir, { recursive: true });
  for (const bad of ['{', JSON.stringify({ ...receipt, v: 1 }), JSON.stringify({ ...receipt, session_id: '' })]) {
    writeFileSync(join(dir, 'a.json'), bad);
    expect(readManagedReceipt(layout, 'g', 'a')).toBeUndefined();
  }
});

it('the start-up prompt mark is kept with the receipt of its thread only', () => {
  const home = mkdtempSync(join(tmpdir(), 'cccc-receipt-'));
  dirs.push(home);
  const layout = new HomeLayout(home);
  markStartupPromptSent(layout, 'g', 'a', 't1'); // no receipt: nothing written
  expect(readManagedReceipt(layout, 'g', 'a')).toBeUndefined();
  writeManagedReceipt(layout, 'g', 'a', receipt);
  markStartupPromptSent(layout, 'g', 'a', 't-other'); // another thread's mark never lands on this one
  expect(readManagedReceipt(layout, 'g', 'a')?.startup_prompt_sent).toBeUndefined();
  markStartupPromptSent(layout, 'g', 'a', 't1');
  expect(readManagedReceipt(layout, 'g', 'a')).toEqual({ ...receipt, startup_prompt_sent: true });
  // Only `true` counts: anything else reads as not sent.
  writeFileSync(join(layout.groupDir('g'), 'state', 'runners', 'managed', 'a.json'), JSON.stringify({ ...receipt, startup_prompt_sent: 'yes' }));
  expect(readManagedReceipt(layout, 'g', 'a')?.startup_prompt_sent).toBeUndefined();
});
