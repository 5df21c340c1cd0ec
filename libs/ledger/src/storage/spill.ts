import { createHash } from 'node:crypto';
import { fsyncDir, writeFileAtomic } from '@cccc/durable-fs';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { ChatMessageData } from '@cccc/ipc-protocol';
import { CHAT_TEXT_SPILL_BYTES } from './limits.js';

export interface SpillPlan {
  data: ChatMessageData;
  /** Write the blob (durably, on the thread pool) before the event that points at it is appended. */
  write(): Promise<void>;
  /** Remove the blob again when the append is rejected or deduplicated. */
  relPath: string;
  absPath: string;
}

/**
 * Long chat text moves to `state/ledger/blobs/chat.<id>.txt` and the message carries a text
 * attachment instead (reference behaviour), so one huge paste cannot bloat every ledger scan.
 * Returns undefined when the text fits.
 */
export function planChatSpill(groupDir: string, eventId: string, data: ChatMessageData): SpillPlan | undefined {
  const bytes = Buffer.from(data.text, 'utf8');
  if (bytes.length <= CHAT_TEXT_SPILL_BYTES) return undefined;
  const relPath = `state/ledger/blobs/chat.${eventId}.txt`;
  const absPath = join(groupDir, relPath);
  const attachment = {
    kind: 'text' as const,
    path: relPath,
    title: `chat.${eventId}.txt`,
    mime_type: 'text/plain',
    bytes: bytes.length,
    sha256: createHash('sha256').update(bytes).digest('hex'),
  };
  const previous = data.attachments ?? [];
  return {
    data: { ...data, text: `[cccc] (chat text stored at ${relPath})`, attachments: [...previous, attachment] },
    write: async () => {
      const dir = dirname(absPath);
      const created = !existsSync(dir);
      await writeFileAtomic(absPath, bytes); // fsyncs the blobs directory itself
      if (created) await fsyncDir(dirname(dir)); // ...and a fresh blobs/ entry in its parent
    },
    relPath,
    absPath,
  };
}
