import { describe, expect, it } from 'vitest';
import { UploadGate } from './upload-gate.js';

describe('UploadGate', () => {
  it('runs at most `capacity` uploads at once, the rest in arrival order, and frees slots on failure', async () => {
    const gate = new UploadGate(2);
    const started: number[] = [];
    const finish: Array<(fail?: boolean) => void> = [];
    const runs = [0, 1, 2, 3].map((i) =>
      gate
        .run(
          () =>
            new Promise<number>((resolve, reject) => {
              started.push(i);
              finish[i] = (fail) => (fail ? reject(new Error(`upload ${i} failed`)) : resolve(i));
            }),
        )
        .catch((e: Error) => e.message),
    );
    await new Promise((r) => setImmediate(r));
    expect(started).toEqual([0, 1]);
    expect(gate.counts).toEqual({ active: 2, waiting: 2 });
    finish[1]!(true);
    await new Promise((r) => setImmediate(r));
    expect(started).toEqual([0, 1, 2]);
    finish[0]!();
    await new Promise((r) => setImmediate(r));
    expect(started).toEqual([0, 1, 2, 3]);
    finish[2]!();
    finish[3]!();
    expect(await Promise.all(runs)).toEqual([0, 'upload 1 failed', 2, 3]);
    expect(gate.counts).toEqual({ active: 0, waiting: 0 });
  });
});
