export { buildProgram } from './program.js';
export { probeDaemon, spawnDaemon } from './daemon-process.js';
