import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { decodeLatest, type RecorderEntry } from '@cccc/hook-fence/recorder';
import { LATEST_FILE, activityDir } from './activity-recorder.js';

export interface ActivityRow {
  session_id: string;
  session_name: string | null;
  state: RecorderEntry['state'];
  for_seconds: number;
  last_event_seconds: number;
  subagents_active: number;
}

export async function readActivityRows(env: NodeJS.ProcessEnv, now: Date, includeEnded: boolean): Promise<ActivityRow[]> {
  let text: string | null = null;
  try {
    text = await readFile(join(activityDir(env), LATEST_FILE), 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  const seconds = (iso: string): number => Math.max(0, Math.floor((now.getTime() - Date.parse(iso)) / 1000));
  return Object.entries(decodeLatest(text).sessions)
    .filter(([, e]) => includeEnded || e.state !== 'ended')
    .map(([id, e]) => ({
      session_id: id,
      session_name: e.session_name,
      state: e.state,
      for_seconds: seconds(e.state_since),
      last_event_seconds: seconds(e.last_event_ts),
      subagents_active: e.subagents_active,
    }))
    .sort((a, b) => a.for_seconds - b.for_seconds);
}

export function formatDuration(s: number): string {
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  if (s < 86_400) return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
  return `${Math.floor(s / 86_400)}d${Math.floor((s % 86_400) / 3600)}h`;
}

export function formatActivityRows(rows: readonly ActivityRow[]): string[] {
  if (rows.length === 0) return ['no Claude Code sessions recorded (run `cccc activity setup`)'];
  return rows.map((r) => {
    const sub = r.subagents_active > 0 ? ` +${r.subagents_active} subagent${r.subagents_active > 1 ? 's' : ''}` : '';
    const name = r.session_name ? ` ${r.session_name}` : '';
    return `${r.state.padEnd(7)} for ${formatDuration(r.for_seconds).padEnd(7)} ${r.session_id.slice(0, 8)}${name}${sub} (last event ${formatDuration(r.last_event_seconds)} ago)`;
  });
}
