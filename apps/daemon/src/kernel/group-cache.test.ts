import { readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { createGroup } from '@cccc/groups';
import { makeTempHome } from '@cccc/groups/testing';
import { describe, expect, it } from 'vitest';
import { GroupDocCache } from './group-cache.js';

describe('GroupDocCache', () => {
  it('parses group.yaml once, then sees an out-of-band edit on the very next read', async () => {
    using home = makeTempHome();
    const g = await createGroup(home.layout, { title: 'before' });
    const cache = new GroupDocCache(home.layout);
    expect(cache.get(g.group_id).title).toBe('before');
    for (let i = 0; i < 50; i++) cache.get(g.group_id);
    expect(cache.stats.loads).toBe(1);

    const path = home.layout.groupYamlPath(g.group_id);
    writeFileSync(path, readFileSync(path, 'utf8').replace('title: before', 'title: edited by hand'));
    expect(cache.get(g.group_id).title).toBe('edited by hand');
    expect(cache.stats.loads).toBe(2);
  });

  it('answers group_not_found once the file is gone, and again after it is recreated', async () => {
    using home = makeTempHome();
    const g = await createGroup(home.layout, { title: 'kept' });
    const cache = new GroupDocCache(home.layout);
    cache.get(g.group_id);
    const path = home.layout.groupYamlPath(g.group_id);
    const text = readFileSync(path, 'utf8');
    rmSync(path);
    expect(() => cache.get(g.group_id)).toThrow(expect.objectContaining({ code: 'group_not_found' }));
    expect(() => cache.get('g_000000000000')).toThrow(expect.objectContaining({ code: 'group_not_found' }));
    writeFileSync(path, text);
    expect(cache.get(g.group_id).title).toBe('kept');
  });

  it('sees a replacement by rename even with the same size and mtime (a new inode)', async () => {
    using home = makeTempHome();
    const g = await createGroup(home.layout, { title: 'aaaa' });
    const path = home.layout.groupYamlPath(g.group_id);
    const second = 1_800_000_000; // whole seconds: the same mtime can be given to both files exactly
    utimesSync(path, second, second);
    const cache = new GroupDocCache(home.layout);
    expect(cache.get(g.group_id).title).toBe('aaaa');
    const before = statSync(path);
    writeFileSync(`${path}.next`, readFileSync(path, 'utf8').replace('title: aaaa', 'title: bbbb'));
    utimesSync(`${path}.next`, second, second);
    renameSync(`${path}.next`, path);
    const after = statSync(path);
    expect([after.size, after.mtimeMs]).toEqual([before.size, before.mtimeMs]);
    expect(cache.get(g.group_id).title).toBe('bbbb');
  });
});
