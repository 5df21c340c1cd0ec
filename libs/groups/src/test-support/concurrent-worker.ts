// Child-process entry for the concurrency test: adds `count` actors to one group, one
// read-modify-write of group.yaml per actor, racing with a sibling process.
import { addActor } from '../actor-store.js';
import { HomeLayout } from '../home-layout.js';

const [home, groupId, tag, count] = process.argv.slice(2);
const layout = new HomeLayout(home!);
for (let i = 0; i < Number(count); i += 1) {
  await addActor(layout, 'user', groupId!, { actor_id: `${tag}n${i}`, runtime: 'custom', command: ['cat'] });
}
