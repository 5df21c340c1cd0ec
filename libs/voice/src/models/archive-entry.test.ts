import { describe, expect, it } from 'vitest';
import { isSafeRelativePath, unsafeArchiveEntry } from './archive-entry.js';

const reserved = new Set(['model.tar.bz2', 'installed.json']);

describe('unsafeArchiveEntry', () => {
  it('allows regular files and directories under relative paths', () => {
    expect(unsafeArchiveEntry('m/model.onnx', 'File', reserved)).toBeUndefined();
    expect(unsafeArchiveEntry('./m/', 'Directory', reserved)).toBeUndefined();
    expect(unsafeArchiveEntry('tokens.txt', 'OldFile', reserved)).toBeUndefined();
  });
  it('refuses links, devices and FIFOs', () => {
    for (const type of ['SymbolicLink', 'Link', 'CharacterDevice', 'BlockDevice', 'FIFO', 'ContiguousFile']) {
      expect(unsafeArchiveEntry('m/x', type, reserved)).toMatch(/not a regular file/);
    }
  });
  it('refuses absolute, drive-letter, backslash and parent paths', () => {
    expect(unsafeArchiveEntry('/etc/passwd', 'File', reserved)).toMatch(/absolute/);
    expect(unsafeArchiveEntry('C:/x', 'File', reserved)).toMatch(/absolute/);
    expect(unsafeArchiveEntry('a\\..\\b', 'File', reserved)).toMatch(/absolute/);
    expect(unsafeArchiveEntry('m/../../x', 'File', reserved)).toMatch(/leaves/);
    expect(unsafeArchiveEntry('..', 'Directory', reserved)).toMatch(/leaves/);
  });
  it('refuses entries that would replace another artifact or the installed record', () => {
    expect(unsafeArchiveEntry('./installed.json', 'File', reserved)).toMatch(/replace installed.json/);
    expect(unsafeArchiveEntry('model.tar.bz2/x', 'File', reserved)).toMatch(/replace/);
  });
});

describe('isSafeRelativePath', () => {
  it('accepts nested relative names and refuses the rest', () => {
    expect(isSafeRelativePath('sherpa-model/encoder-epoch-99.int8.onnx')).toBe(true);
    for (const p of ['', '/abs', 'a/../b', './a', 'a//b', 'a\\b', 'a/ b']) expect(isSafeRelativePath(p)).toBe(false);
  });
});
