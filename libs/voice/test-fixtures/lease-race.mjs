// Child process for the cross-process lease race: waits for the start time, then runs `rounds`
// acquire → release cycles as `owner`, printing one JSON line per attempt.
import { FileLeaseStore } from '../dist/index.js';

const [home, owner, startAt, rounds = '1'] = process.argv.slice(2);
const store = new FileLeaseStore(home);
const req = { group_id: 'g_race00000001', voice_enabled: true, owner_id: owner };
while (Date.now() < Number(startAt)) await new Promise((r) => setTimeout(r, 1));
for (let i = 0; i < Number(rounds); i++) {
  try {
    const a = await store.update({ ...req, action: 'acquire' });
    const r = await store.update({ ...req, action: 'release', lease_id: a.lease_id });
    process.stdout.write(`${JSON.stringify({ acquired: a.acquired, released: r.released })}\n`);
  } catch (err) {
    process.stdout.write(`${JSON.stringify({ code: err.code })}\n`);
  }
}
