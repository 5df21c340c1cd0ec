import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// What the browser loads first, read from the built app (the test target builds it first): the
// theme boot script, one entry chunk and its stylesheet. The heavy parts (markdown, xterm) and
// the non-English catalogs stay out of the entry chunk, loaded when first needed.

const appDir = fileURLToPath(new URL('../dist/app', import.meta.url));

function firstLoad(): { html: string; entry: string } {
  const html = readFileSync(join(appDir, 'index.html'), 'utf8');
  const entry = /<script type="module"[^>]*src="\/assets\/([^"]+\.js)"/.exec(html)?.[1];
  if (!entry) throw new Error('no entry chunk in index.html');
  return { html, entry: readFileSync(join(appDir, 'assets', entry), 'utf8') };
}

describe('the first load of the browser app', () => {
  it('runs boot.js before any stylesheet or module, and preloads nothing lazy', () => {
    expect(existsSync(join(appDir, 'index.html')), 'build @cccc/web first (npx nx run @cccc/web:build)').toBe(true);
    const { html } = firstLoad();
    const boot = html.indexOf('<script src="/boot.js">');
    expect(boot).toBeGreaterThan(0);
    expect(boot).toBeLessThan(html.indexOf('<link rel="stylesheet"'));
    expect(boot).toBeLessThan(html.indexOf('<script type="module"'));
    expect(html).not.toContain('modulepreload');
    expect(readFileSync(join(appDir, 'boot.js'), 'utf8')).toContain("'cccc.theme'");
  });

  it('keeps markdown, xterm and the Chinese and Japanese catalogs in their own chunks', () => {
    const { entry } = firstLoad();
    const assets = readdirSync(join(appDir, 'assets'));
    for (const lazy of [/^zh-CN-.*\.js$/, /^ja-.*\.js$/, /^message-html-.*\.js$/, /^term-session-.*\.js$/]) expect(assets.some((a) => lazy.test(a)), String(lazy)).toBe(true);
    // A string of each catalog that no other module has.
    expect(entry).not.toContain('守护进程无法连接');
    expect(entry).not.toContain('デーモンに接続できません');
    expect(entry).toContain('daemon unreachable');
    expect(entry).not.toContain('xterm-helper-textarea');
    expect(entry).not.toContain('markdown-it');
  });
});
