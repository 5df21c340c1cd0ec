import { describe, expect, it } from 'vitest';
import { AttachmentRegistry } from './attachments.js';
import { validateSnapshotHint, validateTermSize } from './size.js';

describe('AttachmentRegistry', () => {
  it('grants one writer, takeover replaces it, viewers never write', () => {
    const reg = new AttachmentRegistry();
    const changes: Array<[number | undefined, number | undefined]> = [];
    reg.onWriterChange((c) => changes.push([c.previous, c.current]));
    const a = reg.attach({ mode: 'control' });
    expect(a).toEqual({ attachmentId: 1, mode: 'control', writable: true, writerReplaced: false });
    const v = reg.attach({ mode: 'viewer', takeover: true });
    expect(v.writable).toBe(false);
    const b = reg.attach({ mode: 'control' });
    expect(b.writable).toBe(false);
    const c = reg.attach({ mode: 'control', takeover: true });
    expect(c).toMatchObject({ writable: true, writerReplaced: true });
    expect(reg.isWriter(a.attachmentId)).toBe(false);
    expect(reg.isWriter(c.attachmentId)).toBe(true);
    reg.detach(c.attachmentId);
    expect(reg.writerId).toBeUndefined();
    expect(changes).toEqual([
      [undefined, 1],
      [1, 4],
      [4, undefined],
    ]);
    expect(reg.size).toBe(3);
    reg.reset();
    expect(reg.size).toBe(0);
  });
});

describe('size validation', () => {
  it.each([
    [10, 2, true],
    [65535, 65535, true],
    [9, 24, false],
    [80, 1, false],
    [65536, 24, false],
    [80.5, 24, false],
    [undefined, 24, false],
  ])('term_resize %s×%s → %s', (cols, rows, ok) => {
    expect(validateTermSize(cols, rows).ok).toBe(ok);
  });
  it('snapshot hints are capped at 4096', () => {
    expect(validateSnapshotHint(4096, 4096).ok).toBe(true);
    const r = validateSnapshotHint(4097, 40);
    expect(r).toMatchObject({ ok: false, code: 'invalid_size' });
  });
});
