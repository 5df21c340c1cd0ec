// Child for crash.test.ts: ingest text sources with idempotency keys k0, k1, … into a bound work
// lane, printing "acked <i>" once each ingest has returned. With a pause mode it stops inside
// job `pause_at`: "before" (job persisted running, provider not yet called) or "after" (the
// provider committed the source, the job not yet settled), prints "paused <i>" and waits to be killed.
import { GroupSpace, LocalSpaceProvider, NotebookLmControlPlane } from '../dist/index.js';
import { join } from 'node:path';

const [home, stateDir, mode, pauseAtText] = process.argv.slice(2);
const pauseAt = Number(pauseAtText ?? -1);
const real = new LocalSpaceProvider(join(stateDir, 'local', 'provider.sqlite3'));
let current = -1;
const hang = () => new Promise(() => setInterval(() => {}, 1000));
const provider = new Proxy(real, {
  get(target, prop) {
    if (prop !== 'addSource') return typeof target[prop] === 'function' ? target[prop].bind(target) : target[prop];
    return async (...args) => {
      if (current === pauseAt && mode === 'before') {
        process.stdout.write(`paused ${current}\n`);
        await hang();
      }
      const r = await target.addSource(...args);
      if (current === pauseAt && mode === 'after') {
        process.stdout.write(`paused ${current}\n`);
        await hang();
      }
      return r;
    };
  },
});
const space = new GroupSpace({ groupId: 'g_crash', stateDir, dailyDir: join(stateDir, 'no-daily'), spaceRoot: () => undefined, notebooklm: new NotebookLmControlPlane(home, {}), localProvider: provider });
for (let i = 0; ; i++) {
  current = i;
  await space.ingest({ lane: 'work', idempotency_key: `k${i}`, payload: { source_type: 'text', title: `note ${i}`, content: `crash note number ${i} about the phoenix` } });
  process.stdout.write(`acked ${i}\n`);
}
