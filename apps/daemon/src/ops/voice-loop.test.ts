import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fakeAgentArgv } from '@cccc/pty-runtime/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runtimeFixture, screenOf, waitFor, type DaemonFixture } from '../../test-support/daemon-fixture.js';

// The full Voice Secretary loop (issue 26) with real processes: a transcript is appended → the
// daemon's input envelope reaches the hidden voice-secretary actor (the scripted fake agent,
// started from the foreman's runtime config) through a targeted system.notify → the actor edits
// the working Markdown in the repository → reconciliation picks the edit up into the registry.

/**
 * The secretary's script, run by the fake agent's UserPromptSubmit hook for each delivered input:
 * it takes the newest voice_secretary_input envelope addressed to it from the group ledger and
 * writes every batch's input text into that batch's document (repository-relative, under cwd).
 */
const SECRETARY = `
import { readFileSync, writeFileSync, existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
const payload = JSON.parse(readFileSync(0, 'utf8') || '{}');
const { CCCC_HOME: home, CCCC_GROUP_ID: gid, CCCC_ACTOR_ID: me } = process.env;
if (me !== 'voice-secretary') process.exit(0);
const events = readFileSync(join(home, 'groups', gid, 'ledger.jsonl'), 'utf8').split('\\n').filter(Boolean).map((l) => JSON.parse(l));
const notify = events.filter((e) => e.kind === 'system.notify' && e.data.target_actor_id === me && e.data.context?.kind === 'voice_secretary_input').at(-1);
if (!notify) process.exit(0);
const env = notify.data.context.input_envelope;
const done = join(home, 'secretary-done.txt');
const seen = existsSync(done) ? readFileSync(done, 'utf8') : '';
if (seen.includes(env.envelope_id)) process.exit(0);
for (const batch of env.input_batches) {
  const file = join(payload.cwd, batch.document_path);
  mkdirSync(dirname(file), { recursive: true });
  const before = existsSync(file) ? readFileSync(file, 'utf8') : '';
  const lines = env.input_text.split('\\n').filter((l) => l.trim() && !l.startsWith('## ')).map((l) => '- ' + l.replace(/^- \\[[^\\]]*\\] /, ''));
  writeFileSync(file, (before || '# Meeting notes\\n') + '\\n## Notes\\n' + lines.join('\\n') + '\\n');
}
writeFileSync(done, seen + env.envelope_id + '\\n');
`;

let fx: DaemonFixture;
let dir: string;
beforeAll(async () => {
  fx = await runtimeFixture();
  dir = mkdtempSync(join(tmpdir(), 'voice-loop-'));
});
afterAll(async () => {
  await fx?.[Symbol.asyncDispose]();
  rmSync(dir, { recursive: true, force: true });
});

describe('the Voice Secretary loop', () => {
  it('transcript → input envelope → the secretary actor edits the document → reconciliation', async () => {
    const script = join(dir, 'secretary.mjs');
    writeFileSync(script, SECRETARY);
    const settings = { hooks: { UserPromptSubmit: [{ hooks: [{ type: 'command', command: `${JSON.stringify(process.execPath)} ${JSON.stringify(script)}`, timeout: 20 }] }] } };
    const { group_id: gid } = await fx.call('group_create', { title: 'meeting' });
    const ws = join(fx.home, 'scopes', gid);
    mkdirSync(ws, { recursive: true });
    await fx.call('attach', { path: ws, group_id: gid });
    await fx.call('actor_add', { group_id: gid, actor_id: 'lead', runtime: 'custom', command: fakeAgentArgv(['--settings', JSON.stringify(settings)]) });
    await fx.call('assistant_settings_update', { group_id: gid, assistant_id: 'voice_secretary', patch: { enabled: true } });
    await fx.call('group_start', { group_id: gid });
    await waitFor(() => fx.services.runtimes.get(gid, 'voice-secretary'), 15_000, 'voice-secretary running');

    const P = 'docs/voice-secretary/standup.md';
    await fx.call('assistant_voice_transcript_append', { group_id: gid, session_id: 'standup-1', segment_id: 'a', text: 'Ana finished the parser.', document_path: P });
    const r = await fx.call('assistant_voice_transcript_append', { group_id: gid, session_id: 'standup-1', segment_id: 'b', text: 'Bo starts on the migration guide.', flush: true, trigger: { trigger_kind: 'meeting_window' } });
    expect(r).toMatchObject({ input_event_created: true, input_notify_emitted: true });
    const revisionBefore = (r.document as { revision_count: number }).revision_count;

    // The actor writes the repository file from the envelope.
    const file = join(ws, P);
    const text = await waitFor(() => {
      try {
        const t = readFileSync(file, 'utf8');
        return t.includes('Bo starts on the migration guide.') ? t : undefined;
      } catch {
        return undefined;
      }
    }, 30_000, 'the secretary to edit the document').catch(async (err) => {
      console.log('secretary screen:', await screenOf(fx, gid, 'voice-secretary'));
      console.log('ledger:', fx.ledgerEvents(gid).map((e) => `${e.kind} ${JSON.stringify(e.data).slice(0, 200)}`).join('\n'));
      throw err;
    });
    expect(text).toContain('- Ana finished the parser.');

    // Reconciliation brings the edit into the registry and emits its auxiliary event.
    const list = await fx.call('assistant_voice_document_list', { group_id: gid });
    const doc = list.documents_by_path[P] as { content: string; revision_count: number; content_sha256: string };
    expect(doc.content).toBe(text);
    expect(doc.revision_count).toBe(revisionBefore + 1);
    expect(fx.ledgerEvents(gid).some((e) => e.kind === 'assistant.voice.document' && e.data.action === 'reconciled')).toBe(true);
    await fx.call('group_stop', { group_id: gid });
  }, 90_000);
});
