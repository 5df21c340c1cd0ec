export { FileLock } from './file-lock.js';
export { ReusableFileLock } from './reusable-lock.js';
export { createFileDurably, createFileDurablySync, writeFileAtomic, writeFileAtomicSync, fsyncDir, fsyncDirSync } from './atomic-write.js';
