import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { loadGroup, updateGroup } from './group-store.js';
import { createGroup } from './groups.js';
import { bundleWorker } from './test-support/bundle-worker.js';
import { makeTempHome } from './testing.js';

const run = promisify(execFile);

describe('group.yaml store', () => {
  it('rejects unknown, unsafe and corrupt groups with stable codes', async () => {
    using home = makeTempHome();
    expect(() => loadGroup(home.layout, 'g_000000000000')).toThrowError(expect.objectContaining({ code: 'group_not_found' }));
    expect(() => loadGroup(home.layout, '../../etc')).toThrowError(expect.objectContaining({ code: 'group_not_found' }));
    await expect(updateGroup(home.layout, 'g_000000000000', () => undefined)).rejects.toMatchObject({ code: 'group_not_found' });
    const g = await createGroup(home.layout, { title: 't' });
    writeFileSync(home.layout.groupYamlPath(g.group_id), 'v: 1\ngroup_id: [unterminated\n');
    expect(() => loadGroup(home.layout, g.group_id)).toThrowError(expect.objectContaining({ code: 'group_corrupt' }));
    writeFileSync(home.layout.groupYamlPath(g.group_id), `v: 1\ngroup_id: ${g.group_id}\nstate: exploded\n`);
    expect(() => loadGroup(home.layout, g.group_id)).toThrowError(expect.objectContaining({ code: 'group_corrupt' }));
  });

  it('a mutation that throws writes nothing', async () => {
    using home = makeTempHome();
    const g = await createGroup(home.layout, { title: 't' });
    const before = readFileSync(home.layout.groupYamlPath(g.group_id), 'utf8');
    await expect(
      updateGroup(home.layout, g.group_id, (doc) => {
        doc.title = 'changed';
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(readFileSync(home.layout.groupYamlPath(g.group_id), 'utf8')).toBe(before);
  });

  it('a no-op mutation does not rewrite the file', async () => {
    using home = makeTempHome();
    const g = await createGroup(home.layout, { title: 't' });
    const before = readFileSync(home.layout.groupYamlPath(g.group_id), 'utf8');
    const { changed } = await updateGroup(home.layout, g.group_id, () => undefined);
    expect(changed).toBe(false);
    expect(readFileSync(home.layout.groupYamlPath(g.group_id), 'utf8')).toBe(before);
  });

  it('concurrent updates from two processes lose nothing', async () => {
    using home = makeTempHome();
    const g = await createGroup(home.layout, { title: 'race' });
    const path = home.layout.groupYamlPath(g.group_id);
    writeFileSync(path, readFileSync(path, 'utf8') + 'x_unknown_key: keep me\n');
    using worker = await bundleWorker('./concurrent-worker.ts');
    const perWorker = 25;
    await Promise.all(['a', 'b'].map((tag) => run(process.execPath, [worker.file, home.home, g.group_id, tag, String(perWorker)])));
    const group = loadGroup(home.layout, g.group_id);
    expect(group.actors).toHaveLength(2 * perWorker);
    expect(new Set(group.actors.map((a) => a.id)).size).toBe(2 * perWorker);
    expect(readFileSync(path, 'utf8')).toContain('x_unknown_key: keep me');
  }, 60_000);
});
