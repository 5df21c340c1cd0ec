export { FileLock } from './file-lock.js';
export { writeFileAtomic, writeFileAtomicSync, fsyncDir, fsyncDirSync } from './atomic-write.js';
