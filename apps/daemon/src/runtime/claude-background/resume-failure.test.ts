import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { HomeLayout } from '@cccc/groups';
import type { ClaudeBackgroundReceipt } from './background-receipt.js';
import { clearResumeFailure, readResumeFailure, recordResumeFailure } from './resume-failure.js';

const homes: string[] = [];
afterEach(() => {
  for (const h of homes.splice(0)) rmSync(h, { recursive: true, force: true });
});

function layout(): HomeLayout {
  const home = mkdtempSync(join(tmpdir(), 'cccc-resume-failure-'));
  homes.push(home);
  const l = new HomeLayout(home);
  mkdirSync(join(l.groupDir('g_1'), 'state', 'runners', 'claude-background'), { recursive: true });
  return l;
}

const receipt = (session_id: string) => ({ session_id, job_id: 'a1b2c3d4' }) as ClaudeBackgroundReceipt;

describe('Claude resume-failure record', () => {
  it('counts failures of the same session, bounds and is fenced to the receipt', () => {
    const l = layout();
    expect(recordResumeFailure(l, 'g_1', 'peer1', receipt('s-1'), 'first')).toMatchObject({ count: 1, session_id: 's-1' });
    const second = recordResumeFailure(l, 'g_1', 'peer1', receipt('s-1'), 'copy came back');
    expect(second).toMatchObject({ count: 2, last_error: 'copy came back' });
    expect(readResumeFailure(l, 'g_1', 'peer1', receipt('s-1'))?.count).toBe(2);
    // Another session (a fresh receipt) is not paused by the old record, and its count starts over.
    expect(readResumeFailure(l, 'g_1', 'peer1', receipt('s-2'))).toBeUndefined();
    expect(readResumeFailure(l, 'g_1', 'peer1', undefined)).toBeUndefined();
    expect(recordResumeFailure(l, 'g_1', 'peer1', receipt('s-2'), 'y').count).toBe(1);
    clearResumeFailure(l, 'g_1', 'peer1');
    expect(readResumeFailure(l, 'g_1', 'peer1', receipt('s-2'))).toBeUndefined();
  });
  it('keeps at most 300 characters of diagnostic; a malformed record does not pause', () => {
    const l = layout();
    expect(recordResumeFailure(l, 'g_1', 'peer1', receipt('s-1'), 'z'.repeat(1000)).last_error).toHaveLength(300);
    writeFileSync(join(l.groupDir('g_1'), 'state', 'runners', 'claude-background', 'peer1.resume-failure.json'), '{"v":1');
    expect(readResumeFailure(l, 'g_1', 'peer1', receipt('s-1'))).toBeUndefined();
  });
});
