// Child process for the interrupted-consume tests: dies by SIGKILL right after the given
// durable step of a consuming Inbox read ('marker-written' or 'mail-read-appended').
import { openGroupLedger } from '../dist/index.js';

const [home, groupId, crashAt] = process.argv.slice(2);
const store = await openGroupLedger({
  home,
  groupId,
  onConsumePhase: (phase) => {
    if (phase === crashAt) process.kill(process.pid, 'SIGKILL');
  },
});
await store.inboxConsume({ actorId: 'peer1', limit: 2 });
process.stdout.write('consume finished without crashing\n');
