import { describe, expect, it } from 'vitest';
import { ja } from '../i18n/catalogs/ja';
import { zhCN } from '../i18n/catalogs/zh-CN';
import { english, translatorFor } from '../i18n/plain';
import { actionText, EMPTY_REMINDER, reminderRule, triggerText } from './automation-text';

const standup = { id: 'standup', to: ['@foreman'], trigger: { kind: 'interval', every_seconds: 900 }, action: { kind: 'notify', snippet_ref: 'standup', message: '' } };

describe('automation text', () => {
  it('reads a rule\'s trigger and action in English by default', () => {
    expect(triggerText(standup)).toBe('every 15 min');
    expect(triggerText({ trigger: { kind: 'interval', every_seconds: 7200 } })).toBe('every 2 h');
    expect(triggerText({ trigger: { kind: 'interval', every_seconds: 45 } })).toBe('every 45 s');
    expect(triggerText({ trigger: { kind: 'cron', cron: '0 9 * * 1-5' } })).toBe('cron 0 9 * * 1-5 (UTC)');
    expect(triggerText({ trigger: { kind: 'cron', cron: '0 9 * * 1-5', timezone: 'Europe/Berlin' } })).toBe('cron 0 9 * * 1-5 (Europe/Berlin)');
    expect(triggerText({ trigger: { kind: 'at', at: '2026-12-24T09:00:00Z' } })).toBe('once at 2026-12-24T09:00:00Z');
    expect(actionText(standup)).toBe('notify @foreman: snippet standup');
    expect(actionText({ to: [], action: { kind: 'notify', message: 'hi' } })).toBe('notify nobody: hi');
    expect(actionText({ action: { kind: 'group_state', state: 'paused' } })).toBe('set group paused');
    expect(actionText({ action: { kind: 'actor_control', operation: 'restart', targets: ['a', 'b'] } })).toBe('restart a, b');
  });

  it('reads in Chinese and Japanese with only ids, expressions and messages left as written', () => {
    const zh = translatorFor(zhCN);
    const jp = translatorFor(ja);
    expect(triggerText(standup, zh)).toBe('每 15 分钟');
    expect(triggerText({ trigger: { kind: 'cron', cron: '0 9 * * 1-5' } }, jp)).toBe('定期 0 9 * * 1-5（UTC）');
    expect(actionText(standup, zh)).toBe('通知 @foreman：片段 standup');
    expect(actionText({ action: { kind: 'group_state', state: 'paused' } }, jp)).toBe('グループを一時停止にする');
    expect(actionText({ action: { kind: 'actor_control', operation: 'restart', targets: ['a'] } }, zh)).toBe('重启：a');
    // A value this page does not know stays as the daemon sent it.
    expect(actionText({ action: { kind: 'group_state', state: 'archived' } }, zh)).toBe('将群组设为archived');
  });

  it('builds the reminder a form describes, or names the missing part by catalog key', () => {
    expect(reminderRule(EMPTY_REMINDER)).toEqual({ ok: false, error: 'automation.error.id' });
    expect(reminderRule({ ...EMPTY_REMINDER, id: 'r' })).toEqual({ ok: false, error: 'automation.error.message' });
    const bad = reminderRule({ ...EMPTY_REMINDER, id: 'r', message: 'm', when: '-1' });
    expect(bad).toEqual({ ok: false, error: 'automation.error.interval' });
    if (!bad.ok) expect(english(bad.error)).toBe('The interval is a positive number of minutes.');
    expect(reminderRule({ ...EMPTY_REMINDER, id: 'r', message: ' m ', to: '@all, lead' })).toEqual({
      ok: true,
      rule: { id: 'r', enabled: true, scope: 'group', to: ['@all', 'lead'], trigger: { kind: 'interval', every_seconds: 1800 }, action: { kind: 'notify', message: 'm' } },
    });
  });
});
