import { readFileSync, rmSync, writeFileSync } from 'node:fs';
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
});
