import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as browser from './browser.js';
import { isEventOfKind } from './index.js';

// The `./browser` entry is what the Web app bundles at run time: it must reach no schema (zod
// and the op catalog weigh more than the whole app). Its modules import only types.
const runtimeImports = (file: string) =>
  [...readFileSync(new URL(file, import.meta.url), 'utf8').matchAll(/^(?:import|export) (?!type )[^;]*? from '([^']+)'/gm)].map((m) => m[1]);

describe('the browser entry', () => {
  it('exports event narrowing only, the same function as the main entry', () => {
    expect(Object.keys(browser)).toEqual(['isEventOfKind']);
    expect(browser.isEventOfKind).toBe(isEventOfKind);
  });

  it('reaches no schema module at run time', () => {
    expect(runtimeImports('./browser.ts')).toEqual(['./event-kind.js']);
    expect(runtimeImports('./event-kind.ts')).toEqual([]);
  });
});
