// Child process for the kill -9 test: appends forever with N concurrent writers and prints
// each id only after its append was acknowledged (durable).
import { openGroupLedger } from '../dist/index.js';

const [home, groupId, writers = '4'] = process.argv.slice(2);
const store = await openGroupLedger({ home, groupId });
process.stdout.write('ready\n');
let n = 0;
async function writer(w) {
  for (;;) {
    const { event } = await store.append({
      kind: 'chat.message',
      by: 'user',
      data: { text: `w${w} #${n++} ${'x'.repeat(200)}`, message_mode: 'mail', to: ['peer1'] },
    });
    process.stdout.write(`${event.id}\n`);
  }
}
await Promise.all(Array.from({ length: Number(writers) }, (_, w) => writer(w)));
