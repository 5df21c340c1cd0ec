import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HomeLayout } from '@cccc/groups';
import { afterEach, expect, it } from 'vitest';
import { readSelfStatus, removeSelfStatus, selfStatusFor, writeSelfStatus, type SelfStatusRecord } from './managed-self-status.js';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

const record: SelfStatusRecord = { v: 1, session_id: 't1', actor_generation: 'g1', status: 'working', task_id: 'T1', updated_at: '2026-01-01T00:00:00Z' };

it('round-trips and is given back only to the same thread of the same actor generation', () => {
  const home = mkdtempSync(join(tmpdir(), 'cccc-self-status-'));
  dirs.push(home);
  const layout = new HomeLayout(home);
  expect(readSelfStatus(layout, 'g', 'a', 't1', 'g1')).toBeUndefined();
  writeSelfStatus(layout, 'g', 'a', record);
  expect(readSelfStatus(layout, 'g', 'a', 't1', 'g1')).toEqual(record);
  expect(readSelfStatus(layout, 'g', 'a', 't2', 'g1')).toBeUndefined();
  expect(readSelfStatus(layout, 'g', 'a', 't1', 'g2')).toBeUndefined();
  removeSelfStatus(layout, 'g', 'a');
  expect(readSelfStatus(layout, 'g', 'a', 't1', 'g1')).toBeUndefined();
});

it('refuses malformed records', () => {
  for (const bad of [null, 'x', { ...record, v: 2 }, { ...record, status: 'busy' }, { ...record, task_id: 7 }, { ...record, updated_at: undefined }]) {
    expect(selfStatusFor(bad, 't1', 'g1')).toBeUndefined();
  }
  expect(selfStatusFor({ ...record, task_id: null }, 't1', 'g1')).toMatchObject({ task_id: null });
});
