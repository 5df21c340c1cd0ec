export { buildProgram } from './program.js';
export { DAEMON_NODE_ARGS, probeDaemon, spawnDaemon } from './daemon-process.js';
