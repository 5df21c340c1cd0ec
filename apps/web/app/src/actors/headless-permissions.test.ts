import { describe, expect, it } from 'vitest';
import { cardQuestions, interactionResponse, permissionLine } from './headless-permissions';
import { ja } from '../i18n/catalogs/ja';
import { zhCN } from '../i18n/catalogs/zh-CN';
import { translatorFor } from '../i18n/plain';

describe('permissionLine', () => {
  it('names the command and why', () => {
    expect(permissionLine({ kind: 'command', summary: { command: 'touch x', reason: 'Create a marker' } })).toBe('run touch x (Create a marker)');
    expect(permissionLine({ kind: 'file_change', summary: {} })).toBe('change files');
    expect(permissionLine({ kind: 'permissions', summary: { reason: 'Fetch docs', network: { enabled: true }, file_system: { read: ['/a'], write: [] } } })).toBe('allow network access; read /a for this turn (Fetch docs)');
  });
});

describe('question requests', () => {
  const request = {
    kind: 'question',
    summary: {
      questions: [
        { id: 'db', header: 'Database', question: 'Which one?', is_other: true, is_secret: false, options: [{ label: 'sqlite', description: '' }, { label: 'postgres', description: '' }] },
        { id: 'key', header: '', question: 'API key?', is_other: false, is_secret: true, options: null },
      ],
    },
  };

  it('reads the questions; a permission has none', () => {
    expect(cardQuestions(request)).toEqual([
      { id: 'db', text: 'Database: Which one?', options: ['sqlite', 'postgres'], other: true, secret: false },
      { id: 'key', text: 'API key?', options: [], other: true, secret: true },
    ]);
    expect(cardQuestions({ kind: 'command', summary: { command: 'x' } })).toEqual([]);
  });

  it('builds the interaction response once every question has an answer', () => {
    const qs = cardQuestions(request);
    expect(interactionResponse(qs, { db: 'postgres' })).toBeNull();
    expect(interactionResponse(qs, { db: 'postgres', key: '  ' })).toBeNull();
    expect(interactionResponse(qs, { db: 'postgres', key: 'k1' })).toEqual({ answers: { db: ['postgres'], key: ['k1'] } });
  });
});

describe('permissionLine in Chinese and Japanese', () => {
  it('translates the words around the command, paths and reason', () => {
    const zh = translatorFor(zhCN);
    const jp = translatorFor(ja);
    expect(permissionLine({ kind: 'command', summary: { command: 'touch x', reason: 'Create a marker' } }, zh)).toBe('运行 touch x（Create a marker）');
    expect(permissionLine({ kind: 'command', summary: {} }, jp)).toBe('コマンドを実行');
    expect(permissionLine({ kind: 'file_change', summary: {} }, zh)).toBe('修改文件');
    expect(permissionLine({ kind: 'permissions', summary: { network: { enabled: true }, file_system: { read: ['/a'], write: ['/b'] } } }, zh)).toBe('本轮允许网络访问；读取 /a；写入 /b');
    expect(permissionLine({ kind: 'permissions', summary: {} }, jp)).toBe('このターンのみ追加のアクセスを許可');
  });
});
