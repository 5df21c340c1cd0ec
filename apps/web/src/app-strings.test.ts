import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { hardCodedStrings } from './app-strings.js';

// Issue 33: every string a person reads comes from the i18n catalogs. This scans the app's views
// for hard-coded English (JSX text, aria-label/title/placeholder/alt/label literals) so the rule
// stays true as views change.

const APP = fileURLToPath(new URL('../app/src', import.meta.url));

/** Text that is not translated on purpose: product and protocol names, units, sample values, paths and ids. */
const ALLOWED = new Set(['CCCC', 'UTC', 'MCP', 'IM', 'ID', 'id', 'JSON', 'YAML', 'URL', 'Slack', 'Discord', 'Telegram', 'Feishu', 'DingTalk', 'WeCom', 'Tailscale', '/path/to/project', 'docs/voice-secretary/notes.md', 'space/', 'voice-secretary', 'CCCC_HOME/config/voice-models.json', 'https://cccc.example.com/']);

/**
 * Views whose strings have not moved into the catalogs yet. The list may only shrink: a file
 * here that has become clean fails the second test until it is removed from the list.
 */
const PENDING = new Set<string>([]);

function tsxFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => (d.isDirectory() ? tsxFiles(join(dir, d.name)) : d.name.endsWith('.tsx') ? [join(dir, d.name)] : []));
}

const scanned = tsxFiles(APP).map((path) => {
  const name = relative(APP, path);
  return { name, found: hardCodedStrings(name, readFileSync(path, 'utf8'), ALLOWED) };
});

describe('user-visible strings', () => {
  it('no view outside the pending list hard-codes English', () => {
    const offenders = scanned.filter((f) => !PENDING.has(f.name) && f.found.length > 0).map((f) => `${f.name}: ${f.found.map((h) => `${h.line} "${h.text}"`).join(', ')}`);
    expect(offenders).toEqual([]);
  });

  it('the pending list only names files that still need migrating', () => {
    const clean = scanned.filter((f) => PENDING.has(f.name) && f.found.length === 0).map((f) => f.name);
    expect(clean).toEqual([]);
  });

  it('finds JSX text and readable props, and passes catalog lookups', () => {
    const src = `const a = <div title="Hello there" aria-label={t('x')}><b>Save now</b>{'Cancel'}{t('ok')} · 3 <input placeholder={\`Type \${n}\`} /></div>;`;
    expect(hardCodedStrings('x.tsx', src).map((h) => h.text)).toEqual(['Hello there', 'Save now', 'Cancel', 'Type']);
  });
});
