import { appendFile, mkdir, open, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { voiceError, VoiceErrorCodes } from '../errors.js';
import { safePathComponent } from '../safe-path.js';
import { voiceDocumentsDir } from '../documents/document-store.js';

type Rec = Record<string, unknown>;

/** `$CCCC_HOME/voice-secretary/<gid>/<session_id>/transcripts/segments.jsonl`: every stable segment of a session. */
export function sessionSegmentsPath(home: string, groupId: string, sessionId: string): string {
  return join(home, 'voice-secretary', groupId, safePathComponent(sessionId, 'session_id'), 'transcripts', 'segments.jsonl');
}

/** `$CCCC_HOME/voice-secretary/<gid>/documents/<document_id>/transcript.jsonl`: final document-capture rows. */
export function documentTranscriptPath(home: string, groupId: string, documentId: string): string {
  return join(voiceDocumentsDir(home, groupId), safePathComponent(documentId, 'document_id'), 'transcript.jsonl');
}

/** Every parsable line of a JSONL sidecar (a torn last line is skipped); none when the file does not exist. */
export async function readJsonl(path: string): Promise<Rec[]> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw voiceError(VoiceErrorCodes.ioError, `cannot read ${path}: ${(err as Error).message}`);
  }
  const out: Rec[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    try {
      const v = JSON.parse(line) as unknown;
      if (typeof v === 'object' && v !== null && !Array.isArray(v)) out.push(v as Rec);
    } catch {
      // a torn line after a crash is not a record
    }
  }
  return out;
}

/**
 * Append `record` (fsynced) unless the complete file already holds one with the same
 * `segment_id`: an exact retry answers that row with `created: false`. Append-only: earlier rows
 * (superseded live checkpoints included) are never rewritten.
 */
export async function appendSegmentOnce(path: string, record: Rec & { segment_id: string }): Promise<{ row: Rec; created: boolean }> {
  const rows = await readJsonl(path);
  const prior = rows.find((r) => r.segment_id === record.segment_id);
  if (prior) return { row: prior, created: false };
  try {
    await mkdir(dirname(path), { recursive: true, mode: 0o700 });
    let torn = false;
    try {
      const text = await readFile(path, 'utf8');
      torn = text.length > 0 && !text.endsWith('\n');
    } catch {
      // new file
    }
    await appendFile(path, `${torn ? '\n' : ''}${JSON.stringify(record)}\n`, { mode: 0o600 });
    const fh = await open(path, 'r');
    try {
      await fh.sync();
    } finally {
      await fh.close();
    }
  } catch (err) {
    throw voiceError(VoiceErrorCodes.ioError, `cannot append ${path}: ${(err as Error).message}`);
  }
  return { row: record, created: true };
}
