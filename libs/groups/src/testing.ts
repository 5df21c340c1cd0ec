import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { HomeLayout } from './home-layout.js';

/** The reference daemon's home fixture (read-only; always copy it before use). */
export const REFERENCE_HOME_FIXTURE = resolve(
  process.env.CCCC_REFERENCE_HOME_FIXTURE ?? join(dirname(fileURLToPath(import.meta.url)), '../../../../shared/fixtures/reference-home'),
);
export const REFERENCE_GROUP_ID = 'g_30e7eb3af8cf';
export const REFERENCE_SCOPE_KEY = 's_ea35bf953a18';

export interface TempHome extends Disposable {
  home: string;
  layout: HomeLayout;
}

/** A disposable temp `CCCC_HOME`; with `fromReference` a copy of the reference fixture. */
export function makeTempHome(options: { fromReference?: boolean } = {}): TempHome {
  const home = mkdtempSync(join(tmpdir(), 'cccc-groups-'));
  if (options.fromReference) cpSync(REFERENCE_HOME_FIXTURE, home, { recursive: true });
  return {
    home,
    layout: new HomeLayout(home),
    [Symbol.dispose]() {
      rmSync(home, { recursive: true, force: true });
    },
  };
}
