import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { groupWithTeam, DaemonFixture } from '../../test-support/daemon-fixture.js';

// §8.2 observability_get|update and branding_get|update through the daemon's socket.

describe('observability and branding (§8.2)', () => {
  let d: DaemonFixture;
  let gid: string;
  const settingsPath = () => join(d.home, 'settings.yaml');
  const settingsText = () => (existsSync(settingsPath()) ? readFileSync(settingsPath(), 'utf8') : '');

  beforeAll(async () => {
    d = await DaemonFixture.start();
    gid = await groupWithTeam(d);
  });
  afterAll(async () => {
    await d?.[Symbol.asyncDispose]();
  });

  it('observability_get answers the defaults before anything is stored', async () => {
    const { observability } = await d.call('observability_get', {});
    expect(observability).toMatchObject({
      developer_mode: false,
      log_level: 'INFO',
      terminal_transcript: { enabled: false, per_actor_bytes: 10 * 1024 * 1024, persist: false, strip_ansi: true },
      terminal_ui: { scrollback_lines: 8000 },
      runtime_visibility: { peer_runtime: 'visible', assistant_runtime: 'hidden' },
    });
  });

  it('observability_update patches nested sections, persists to settings.yaml and keeps other keys', async () => {
    writeFileSync(settingsPath(), '# operator notes\nother_section:\n  keep: 1\n');
    const { observability } = await d.call('observability_update', {
      patch: { log_level: 'warning', terminal_ui: { scrollback_lines: 20000 }, runtime_visibility: { assistant_runtime: 'visible' } },
    });
    expect(observability).toMatchObject({ log_level: 'WARNING', terminal_ui: { scrollback_lines: 20000 }, runtime_visibility: { peer_runtime: 'visible', assistant_runtime: 'visible' } });
    expect(settingsText()).toContain('# operator notes');
    expect(settingsText()).toContain('keep: 1');
    expect((await d.call('observability_get', {})).observability).toEqual(observability);
    // The daemon's log threshold follows log_level.
    expect(d.services.logThreshold.current).toBe('warn');
    await d.call('observability_update', { patch: { log_level: 'INFO' } });
    expect(d.services.logThreshold.current).toBe('info');
  });

  it('refuses bad patches with invalid_patch and changes nothing', async () => {
    const before = settingsText();
    for (const patch of [
      {},
      { unknown_key: true },
      { developer_mode: 'maybe' },
      { log_level: 'LOUD' },
      { terminal_ui: { scrollback_lines: 10 } },
      { terminal_transcript: { surprise: 1 } },
      { runtime_visibility: { peer_runtime: 'sometimes' } },
    ]) {
      const error = await d.errorOf('observability_update', { patch });
      expect(error.code, JSON.stringify(patch)).toBe('invalid_patch');
    }
    expect(settingsText()).toBe(before);
  });

  it('only the user may update observability or branding; anyone may read', async () => {
    for (const by of ['lead', 'p1', 'stranger']) {
      expect(await d.codeOf('observability_update', { by, patch: { developer_mode: true } })).toBe('permission_denied');
      expect(await d.codeOf('branding_update', { by, patch: { product_name: 'X' } })).toBe('permission_denied');
    }
    expect((await d.call('observability_get', {})).observability['developer_mode']).toBe(false);
    expect((await d.call('branding_get', {})).branding.product_name).toBe('CCCC');
    expect(gid).toMatch(/^g_/);
  });

  it('branding_get defaults, branding_update sets the name and stamps updated_at; an empty name resets it', async () => {
    expect((await d.call('branding_get', {})).branding).toEqual({ product_name: 'CCCC' });
    const { branding } = await d.call('branding_update', { patch: { product_name: '  Acme Team  ' } });
    expect(branding).toMatchObject({ product_name: 'Acme Team', updated_at: expect.stringMatching(/Z$/) });
    expect((await d.call('branding_get', {})).branding).toEqual(branding);
    expect((await d.call('branding_update', { patch: { product_name: '' } })).branding.product_name).toBe('CCCC');
  });

  it('accepts asset paths to image files inside state/web_branding and clears them with ""', async () => {
    const dir = join(d.home, 'state', 'web_branding');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'logo.png'), 'png');
    writeFileSync(join(dir, 'fav.ico'), 'ico');
    const { branding } = await d.call('branding_update', {
      patch: { logo_icon_asset_path: 'state/web_branding/logo.png', favicon_asset_path: 'state/web_branding/./fav.ico' },
    });
    expect(branding).toMatchObject({ logo_icon_asset_path: 'state/web_branding/logo.png', favicon_asset_path: 'state/web_branding/fav.ico' });
    const cleared = await d.call('branding_update', { patch: { logo_icon_asset_path: '' } });
    expect(cleared.branding.logo_icon_asset_path).toBeUndefined();
    expect(cleared.branding.favicon_asset_path).toBe('state/web_branding/fav.ico');
  });

  it('refuses asset paths that escape, are absolute, symlink out, are not images or do not exist', async () => {
    const dir = join(d.home, 'state', 'web_branding');
    mkdirSync(dir, { recursive: true });
    const outside = mkdtempSync(join(tmpdir(), 'cccc-brand-'));
    writeFileSync(join(outside, 'evil.png'), 'png');
    symlinkSync(join(outside, 'evil.png'), join(dir, 'link.png'));
    symlinkSync(outside, join(dir, 'linkdir'));
    writeFileSync(join(dir, 'notes.txt'), 'text');
    writeFileSync(join(dir, 'logo.jpg'), 'jpg');
    mkdirSync(join(dir, 'folder.png'));
    const before = settingsText();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ logo_icon_asset_path: '../../etc/passwd.png' }, 'invalid_path'],
      [{ logo_icon_asset_path: 'state/web_branding/../../settings.png' }, 'invalid_path'],
      [{ logo_icon_asset_path: join(outside, 'evil.png') }, 'invalid_path'],
      [{ logo_icon_asset_path: 'state/web_branding/link.png' }, 'invalid_path'],
      [{ logo_icon_asset_path: 'state/web_branding/linkdir/evil.png' }, 'invalid_path'],
      [{ logo_icon_asset_path: 'state/web_branding/notes.txt' }, 'invalid_path'],
      [{ favicon_asset_path: 'state/web_branding/logo.jpg' }, 'invalid_path'],
      [{ logo_icon_asset_path: 'state/web_branding/folder.png' }, 'invalid_path'],
      [{ logo_icon_asset_path: 'state/other/logo.png' }, 'invalid_path'],
      [{ logo_icon_asset_path: 'state/web_branding/missing.png' }, 'path_not_found'],
      [{ product_name: 'x'.repeat(81) }, 'invalid_patch'],
      [{ product_name: 7 }, 'invalid_patch'],
      [{ theme: 'dark' }, 'invalid_patch'],
      [{}, 'invalid_patch'],
    ];
    for (const [patch, code] of cases) {
      expect(await d.codeOf('branding_update', { patch }), JSON.stringify(patch)).toBe(code);
    }
    // A refused patch with a good name and a bad path changes nothing, not even the name.
    expect(await d.codeOf('branding_update', { patch: { product_name: 'Half', logo_icon_asset_path: 'state/web_branding/link.png' } })).toBe('invalid_path');
    expect(settingsText()).toBe(before);
    rmSync(outside, { recursive: true, force: true });
  });

  it('a restarted daemon reads the stored settings', async () => {
    await d.call('observability_update', { patch: { log_level: 'ERROR' } });
    await d.call('branding_update', { patch: { product_name: 'Kept' } });
    const home = d.home;
    await d.daemon.stop('restart');
    d = await DaemonFixture.start({ home });
    expect((await d.call('observability_get', {})).observability['log_level']).toBe('ERROR');
    expect(d.services.logThreshold.current).toBe('error');
    expect((await d.call('branding_get', {})).branding.product_name).toBe('Kept');
  });
});
