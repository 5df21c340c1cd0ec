export { FileLock } from './file-lock.js';
export { ReusableFileLock } from './reusable-lock.js';
export { createFileDurably, createFileDurablySync, replaceFile, writeFileAtomic, writeFileAtomicSync, fsyncDir, fsyncDirSync } from './atomic-write.js';
export { requireOnFirstUse } from './require-on-first-use.js';
