import { describe, expect, it } from 'vitest';
import { useDaemonHome } from './e2e-harness.js';

const cli = useDaemonHome();

describe('cccc memory search / get / write (real daemon)', () => {
  it('writes entries, finds them best first, prints their lines, and refuses a path outside the memory', async () => {
    const { group_id } = await cli.json(['group', 'create', '--title', 'mem']);
    await cli.json(['use', group_id]);
    const w = await cli.cccc(['memory', 'write', 'The parser uses a Pratt loop for operators.', '--tag', 'parser', '--key', 'k1']);
    expect(w.stdout).toMatch(/^written .*\/state\/memory\/MEMORY\.md\n$/);
    expect((await cli.cccc(['memory', 'write', 'anything', '--key', 'k1'])).stdout).toMatch(/^silent \(persistence_idempotency_key\) /);
    await cli.json(['memory', 'write', 'Pratt parser benchmark: 3 ms a file.', '--daily', '--date', '2026-11-29']);

    const found = await cli.json(['memory', 'search', 'pratt', 'operators']);
    expect(found.count).toBe(2);
    expect(found.hits[0]).toMatchObject({ score: 1, metadata: { tags: ['parser'] } });
    expect(found.hits[1].path).toMatch(/daily\/2026-11-29__mem\.md$/);
    const text = await cli.cccc(['memory', 'search', 'pratt', 'operators', '--limit', '1']);
    expect(text.stdout).toMatch(/^\/.*MEMORY\.md:\d+-\d+  1\.00\n  .*\*\*Pratt\*\*.*\n1 hit\n$/);

    const hit = found.hits[0];
    const lines = await cli.cccc(['memory', 'get', 'MEMORY.md', '--offset', String(hit.start_line), '--limit', String(hit.end_line - hit.start_line + 1)]);
    expect(lines.stdout).toContain('The parser uses a Pratt loop for operators.');
    const outside = await cli.cccc(['memory', 'get', '../../group.yaml']);
    expect(outside.code).toBe(1);
    expect(outside.stderr).toMatch(/^error: memory_path_outside_root: /);
  });
});
