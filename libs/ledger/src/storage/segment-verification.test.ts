import { afterEach, describe, expect, it } from 'vitest';
import { openGroupLedger } from '../open-ledger.js';
import { ledgerPaths } from '../paths.js';
import { TempHomes } from '../test-support/homes.js';
import { listSegments } from './segment-files.js';
import { SegmentVerification } from './segment-verification.js';

const homes = new TempHomes();
afterEach(() => homes.cleanup());
const G = 'g_verified0001';

describe('SegmentVerification', () => {
  it('remembers one entry per segment on disk: a segment gzipped since is forgotten under its plain name', async () => {
    const home = homes.make();
    await using store = await openGroupLedger({ home, groupId: G });
    const paths = ledgerPaths(home, G);
    const verification = new SegmentVerification();
    for (let round = 0; round < 4; round++) {
      await store.append({ kind: 'chat.message', by: 'user', data: { text: `r${round}`, message_mode: 'mail', to: ['peer1'] } });
      await store.compact({ force: true }); // seals one more; gzips the one before
      await verification.verifyAll(paths.segmentsDir);
      const onDisk = listSegments(paths.segmentsDir);
      expect(onDisk.every((s) => verification.isVerified(s))).toBe(true);
      expect(verification.size).toBe(onDisk.length);
    }
  });
});
