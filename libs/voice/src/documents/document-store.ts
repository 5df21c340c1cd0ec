import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { FileLock, writeFileAtomic } from '@cccc/durable-fs';
import { voiceError, VoiceErrorCodes } from '../errors.js';
import { emptyIndex, type DocumentIndex, type Stamp } from './document-index.js';

/** `$CCCC_HOME/voice-secretary/<group_id>/documents/` (the raw sidecars and the registry). */
export function voiceDocumentsDir(home: string, groupId: string): string {
  return join(home, 'voice-secretary', groupId, 'documents');
}

export const newStamp = (): Stamp => ({ now: new Date().toISOString(), newId: () => randomUUID().replace(/-/g, '').slice(0, 16) });

/**
 * The document registry of one group, `documents/index.json`, every mutation under a kernel
 * flock on the sibling `index.json.lock`. Unreadable JSON is `io_error`, never an empty registry
 * (which would let discovery re-add deleted paths).
 */
export class DocumentIndexStore {
  readonly path: string;

  constructor(home: string, groupId: string) {
    this.path = join(voiceDocumentsDir(home, groupId), 'index.json');
  }

  async read(): Promise<DocumentIndex> {
    let text: string;
    try {
      text = await readFile(this.path, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return emptyIndex();
      throw voiceError(VoiceErrorCodes.ioError, `cannot read documents/index.json: ${(err as Error).message}`);
    }
    try {
      const doc = JSON.parse(text) as Partial<DocumentIndex>;
      return { ...emptyIndex(), ...doc, documents: doc.documents ?? [], folders: doc.folders ?? [], root_order: doc.root_order ?? [] };
    } catch {
      throw voiceError(VoiceErrorCodes.ioError, 'documents/index.json is not valid JSON');
    }
  }

  /** Read-modify-write under the lock; `mutate` throwing writes nothing. Returns what it returned. */
  async update<T extends { index: DocumentIndex }>(mutate: (index: DocumentIndex) => Promise<T> | T): Promise<T> {
    let lock: FileLock;
    try {
      lock = await FileLock.acquire(`${this.path}.lock`, 10_000);
    } catch (err) {
      throw voiceError(VoiceErrorCodes.ioError, `documents/index.json lock: ${(err as Error).message}`);
    }
    try {
      const before = await this.read();
      const out = await mutate(before);
      if (out.index !== before) {
        try {
          await writeFileAtomic(this.path, `${JSON.stringify(out.index, null, 2)}\n`, 0o600);
        } catch (err) {
          throw voiceError(VoiceErrorCodes.ioError, `cannot write documents/index.json: ${(err as Error).message}`);
        }
      }
      return out;
    } finally {
      lock.release();
    }
  }
}
