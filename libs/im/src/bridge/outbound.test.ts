import type { CCCSEventV1 } from '@cccc/ipc-protocol';
import { describe, expect, it } from 'vitest';
import { outboundText } from './outbound.js';

const ev = (kind: string, by: string, data: Record<string, unknown>) =>
  ({ v: 1, id: 'e1', ts: '2026-12-06T10:00:00Z', kind, group_id: 'g', scope_key: '', by, data }) as CCCSEventV1;
const on = { forwardPublicNotify: true };
const off = { forwardPublicNotify: false };

describe('outboundText', () => {
  it('forwards agent messages addressed to the user only', () => {
    expect(outboundText(ev('chat.message', 'lead', { text: 'done', to: ['user'] }), off)).toBe('[lead] done');
    expect(outboundText(ev('chat.message', 'lead', { text: 'done', to: ['@user'] }), off)).toBe('[lead] done');
    expect(outboundText(ev('chat.message', 'lead', { text: 'psst', to: ['p1'] }), off)).toBeUndefined();
    expect(outboundText(ev('chat.message', 'user', { text: 'echo', to: ['user'] }), off)).toBeUndefined();
    expect(outboundText(ev('chat.message', 'lead', { text: ' ', to: ['user'] }), off)).toBeUndefined();
  });

  it('forwards system.notify only when public, not actor-targeted, and enabled in the settings', () => {
    const pub = { kind: 'info', title: 'Build', message: 'green', im_visibility: 'public' };
    expect(outboundText(ev('system.notify', 'system', pub), on)).toBe('[notify] Build: green');
    expect(outboundText(ev('system.notify', 'system', pub), off)).toBeUndefined();
    expect(outboundText(ev('system.notify', 'system', { ...pub, im_visibility: 'internal' }), on)).toBeUndefined();
    expect(outboundText(ev('system.notify', 'system', { kind: 'info', title: 'x' }), on)).toBeUndefined();
    expect(outboundText(ev('system.notify', 'system', { ...pub, target_actor_id: 'p1' }), on)).toBeUndefined();
    expect(outboundText(ev('actor.start', 'user', {}), on)).toBeUndefined();
  });
});
