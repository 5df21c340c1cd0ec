import { describe, expect, it } from 'vitest';
import { hookCliEntry } from './hook-launch.js';

describe('hookCliEntry', () => {
  const shim = (...present: string[]) => (p: string) => present.includes(p);

  it('a daemon run as <pkg>/dist/cli.js hooks through the committed <pkg>/bin/cccc.js fast path', () => {
    expect(hookCliEntry('/opt/cccc/dist/cli.js', shim('/opt/cccc/bin/cccc.js'))).toBe('/opt/cccc/bin/cccc.js');
  });

  it('keeps the entry when there is no shim beside dist/, or the entry is not dist/cli.js', () => {
    expect(hookCliEntry('/opt/cccc/dist/cli.js', shim())).toBe('/opt/cccc/dist/cli.js');
    expect(hookCliEntry('/opt/cccc/bin/cccc.js', shim('/opt/cccc/bin/cccc.js'))).toBe('/opt/cccc/bin/cccc.js');
    expect(hookCliEntry('/opt/cccc/lib/cli.js', shim('/opt/cccc/bin/cccc.js'))).toBe('/opt/cccc/lib/cli.js');
  });
});
