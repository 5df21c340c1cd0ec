import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { HomeLayout } from '@cccc/groups';
import {
  claudeBackgroundReceiptPath,
  claudeBackgroundSettingsPath,
  claudeReceiptMatches,
  claudeStorage,
  readClaudeBackgroundReceipt,
  removeClaudeBackgroundState,
  writeClaudeBackgroundReceipt,
  writeClaudeBackgroundSettings,
  type ClaudeBackgroundReceipt,
} from './background-receipt.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function layout(): HomeLayout {
  const home = mkdtempSync(join(tmpdir(), 'claude-bg-receipt-'));
  dirs.push(home);
  return new HomeLayout(home);
}

const receipt: ClaudeBackgroundReceipt = {
  v: 2,
  runtime: 'claude',
  session_id: 'a67d9a1f-0f6b-447d-bc60-ebd10eb53958',
  job_id: 'a67d9a1f',
  cwd: '/work',
  command: ['claude', '--dangerously-skip-permissions'],
  actor_generation: '2026-12-06T10:00:00.000Z',
  storage: '/h/.claude',
  launch_identity: 'a'.repeat(64),
  created_at: '2026-12-06T10:00:01.000Z',
};

describe('Claude background receipts', () => {
  it('round-trip durably, owner-only, and match only the same identity', () => {
    const l = layout();
    writeClaudeBackgroundReceipt(l, 'g_1', 'peer1', receipt);
    expect(statSync(claudeBackgroundReceiptPath(l, 'g_1', 'peer1')).mode & 0o777).toBe(0o600);
    const read = readClaudeBackgroundReceipt(l, 'g_1', 'peer1');
    expect(read).toEqual(receipt);
    const { cwd, command, actor_generation, storage, launch_identity } = receipt;
    const identity = { cwd, command, actor_generation, storage, launch_identity };
    expect(claudeReceiptMatches(read, identity)).toBe(true);
    expect(claudeReceiptMatches(read, { ...identity, launch_identity: 'b'.repeat(64) })).toBe(false);
    expect(claudeReceiptMatches(read, { ...identity, command: ['claude'] })).toBe(false);
    expect(claudeReceiptMatches(read, { ...identity, storage: '/other/.claude' })).toBe(false);
    expect(claudeReceiptMatches(read, { ...identity, actor_generation: 'later' })).toBe(false);
    expect(claudeReceiptMatches(undefined, identity)).toBe(false);
  });
  it('never parses legacy or malformed state as a resumable receipt', () => {
    const l = layout();
    const path = claudeBackgroundReceiptPath(l, 'g_1', 'peer1');
    mkdirSync(dirname(path), { recursive: true });
    for (const bad of [{ ...receipt, v: 1 }, { ...receipt, runtime: 'codex' }, { ...receipt, session_id: 'not-a-uuid' }, { ...receipt, job_id: 'XYZ' }, { kind: 'hook', session_id: receipt.session_id }]) {
      writeFileSync(path, JSON.stringify(bad));
      expect(readClaudeBackgroundReceipt(l, 'g_1', 'peer1')).toBeUndefined();
    }
    writeFileSync(path, '{not json');
    expect(readClaudeBackgroundReceipt(l, 'g_1', 'peer1')).toBeUndefined();
  });
  it('keeps the settings file owner-only and replaces it atomically; retiring the identity removes both', () => {
    const l = layout();
    const path = writeClaudeBackgroundSettings(l, 'g_1', 'peer1', { env: { K: 'v1' } });
    expect(path).toBe(claudeBackgroundSettingsPath(l, 'g_1', 'peer1'));
    expect(statSync(path).mode & 0o777).toBe(0o600);
    writeClaudeBackgroundSettings(l, 'g_1', 'peer1', { env: { K: 'v2' } });
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({ env: { K: 'v2' } });
    writeClaudeBackgroundReceipt(l, 'g_1', 'peer1', receipt);
    removeClaudeBackgroundState(l, 'g_1', 'peer1');
    expect(readClaudeBackgroundReceipt(l, 'g_1', 'peer1')).toBeUndefined();
    expect(() => statSync(path)).toThrow();
  });
  it('places the storage identity where Claude keeps jobs', () => {
    expect(claudeStorage({ HOME: '/h' })).toBe('/h/.claude');
    expect(claudeStorage({ HOME: '/h', CLAUDE_CONFIG_DIR: '/c' })).toBe('/c');
  });
});
