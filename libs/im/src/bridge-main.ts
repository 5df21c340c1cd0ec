import { bridgeMain } from './bridge/main.js';

// The IM bridge child process the daemon's supervisor starts, one per group.
// Exit explicitly: an aborted long poll or a closed stream must not keep the process alive.
process.exit(await bridgeMain(process.argv.slice(2)));
