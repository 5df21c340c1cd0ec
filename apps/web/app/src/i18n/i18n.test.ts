import { describe, expect, it } from 'vitest';
import { en } from './catalogs/en';
import { ja } from './catalogs/ja';
import { zhCN } from './catalogs/zh-CN';
import { formatDateTime, formatNumber } from './format';
import { parseLocale, pickLocale } from './locales';
import { translate } from './translate';

describe('language choice', () => {
  it('picks the first browser language it speaks, by primary subtag', () => {
    expect(pickLocale(['zh-TW', 'en'])).toBe('zh-CN');
    expect(pickLocale(['ja-JP'])).toBe('ja');
    expect(pickLocale(['de-DE', 'ja', 'en'])).toBe('ja');
    expect(pickLocale(['fr'])).toBe('en');
    expect(pickLocale([])).toBe('en');
  });
  it('accepts only the languages it has', () => {
    expect(parseLocale('ja')).toBe('ja');
    expect(parseLocale('zh')).toBeNull();
    expect(parseLocale(null)).toBeNull();
  });
});

describe('catalogs', () => {
  it('every catalog has exactly the English keys, none empty, placeholders kept', () => {
    const placeholders = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
    for (const catalog of [zhCN, ja]) {
      expect(Object.keys(catalog).sort()).toEqual(Object.keys(en).sort());
      for (const [key, text] of Object.entries(catalog)) {
        expect(text, key).not.toBe('');
        expect(placeholders(text), key).toEqual(placeholders(en[key as keyof typeof en]));
      }
    }
  });
  it('fills placeholders and leaves unknown ones as written', () => {
    expect(translate(en, 'app.daemonUp', { version: '1.2' })).toBe('daemon 1.2');
    expect(translate(zhCN, 'app.daemonUp', { version: '1.2' })).toBe('守护进程 1.2');
    expect(translate(en, 'app.daemonUp')).toBe('daemon {version}');
  });
});

describe('Intl formatting per locale', () => {
  it('formats numbers and dates in the chosen language', () => {
    expect(formatNumber('en', 1234567.5)).toBe('1,234,567.5');
    expect(formatNumber('ja', 1234567.5)).toBe('1,234,567.5');
    const d = new Date(Date.UTC(2026, 7, 3, 12, 0));
    expect(formatDateTime('ja', d, { year: 'numeric', month: 'long', timeZone: 'UTC' })).toBe('2026年8月');
    expect(formatDateTime('zh-CN', d, { year: 'numeric', month: 'long', timeZone: 'UTC' })).toBe('2026年8月');
    expect(formatDateTime('en', d, { year: 'numeric', month: 'long', timeZone: 'UTC' })).toBe('August 2026');
    expect(formatDateTime('en', 'not a date')).toBe('not a date');
  });
});
