import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { findRepoRoot, normalizeGitRemote, readOriginUrl } from './git-remote.js';

describe('normalizeGitRemote', () => {
  it.each([
    ['git@github.com:ChesterRa/cccc.git', 'https://github.com/ChesterRa/cccc'],
    ['git@github.com:ChesterRa/cccc', 'https://github.com/ChesterRa/cccc'],
    ['https://github.com/ChesterRa/cccc.git', 'https://github.com/ChesterRa/cccc'],
    ['http://example.com/x/y', 'http://example.com/x/y'],
    ['ssh://git@github.com/ChesterRa/cccc.git', 'https://github.com/ChesterRa/cccc'],
    ['ssh://git@host:2222/team/repo.git', 'https://host:2222/team/repo'],
    ['  https://h/r.git\n', 'https://h/r'],
    ['/srv/git/repo.git', '/srv/git/repo.git'],
    ['file:///srv/git/repo.git', 'file:///srv/git/repo.git'],
    ['', ''],
  ])('%j → %j', (input, expected) => {
    expect(normalizeGitRemote(input)).toBe(expected);
  });
});

describe('repository discovery', () => {
  const dirs: string[] = [];
  afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));
  const tmp = () => {
    const d = mkdtempSync(join(tmpdir(), 'cccc-git-'));
    dirs.push(d);
    return d;
  };

  it('finds the root by walking up and reads origin from .git/config', () => {
    const root = tmp();
    mkdirSync(join(root, '.git'));
    writeFileSync(
      join(root, '.git', 'config'),
      '[core]\n\tbare = false\n[remote "upstream"]\n\turl = git@x:other.git\n[remote "origin"]\n\turl = git@github.com:me/proj.git\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n',
    );
    mkdirSync(join(root, 'a', 'b'), { recursive: true });
    expect(findRepoRoot(join(root, 'a', 'b'))).toBe(root);
    expect(readOriginUrl(root)).toBe('git@github.com:me/proj.git');
  });

  it('follows a worktree .git file to the common dir', () => {
    const main = tmp();
    mkdirSync(join(main, '.git', 'worktrees', 'wt'), { recursive: true });
    writeFileSync(join(main, '.git', 'config'), '[remote "origin"]\n\turl = "https://h/r.git"\n');
    writeFileSync(join(main, '.git', 'worktrees', 'wt', 'commondir'), '../..\n');
    const wt = tmp();
    writeFileSync(join(wt, '.git'), `gitdir: ${join(main, '.git', 'worktrees', 'wt')}\n`);
    expect(readOriginUrl(wt)).toBe('https://h/r.git');
  });

  it('has no origin outside a repository', () => {
    const d = tmp();
    expect(readOriginUrl(d)).toBe('');
  });
});
