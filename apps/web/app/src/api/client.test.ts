import { afterEach, describe, expect, it, vi } from 'vitest';
import { api, call, routeUrl, uploadForm } from './client';
import { ApiError } from './http';

// The typed client speaks the route table: which method, which path, which body or query each
// call sends. fetch is replaced by a recorder answering the Web's envelope.

interface Sent {
  readonly method: string;
  readonly url: string;
  readonly body: unknown;
  readonly contentType: string | undefined;
}

function recordFetch(answer: { status?: number; body?: unknown } = {}): Sent[] {
  const sent: Sent[] = [];
  vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
    const headers = new Headers(init.headers);
    sent.push({ method: init.method ?? 'GET', url, body: init.body, contentType: headers.get('content-type') ?? undefined });
    return new Response(JSON.stringify(answer.body ?? { ok: true, result: { echoed: true } }), { status: answer.status ?? 200 });
  });
  return sent;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the typed client', () => {
  it('posts a JSON body to the route path and unwraps the result', async () => {
    const sent = recordFetch();
    const result = await api.send('g 1', { text: 'hi', to: ['peer'] });
    expect(result).toEqual({ echoed: true });
    expect(sent).toEqual([{ method: 'POST', url: '/api/v1/groups/g%201/send', body: '{"text":"hi","to":["peer"]}', contentType: 'application/json' }]);
  });

  it('fills every path parameter in order and sends {} when a write takes no body', async () => {
    const sent = recordFetch();
    await api.actor_start('g_1', 'a/b');
    await api.actor_update('g_1', 'lead', { patch: { title: 'Lead' } });
    await api.group_detach_scope('g_1', 's_1');
    expect(sent.map((s) => [s.method, s.url, s.body])).toEqual([
      ['POST', '/api/v1/groups/g_1/actors/a%2Fb/start', '{}'],
      ['POST', '/api/v1/groups/g_1/actors/lead', '{"patch":{"title":"Lead"}}'],
      ['DELETE', '/api/v1/groups/g_1/scopes/s_1', undefined],
    ]);
  });

  it('sends a query route its op args as query parameters', async () => {
    const sent = recordFetch();
    await api.ledger_tail('g_1', { kinds: ['chat.message', 'mail.read'], limit: 100, before_event_id: 'e1' });
    await api.actor_list('g_1');
    await api.inbox_read('g_1', 'peer', { limit: 200 });
    expect(sent.map((s) => [s.method, s.url, s.body])).toEqual([
      ['GET', '/api/v1/groups/g_1/ledger/tail?kinds=chat.message%2Cmail.read&limit=100&before_event_id=e1', undefined],
      ['GET', '/api/v1/groups/g_1/actors', undefined],
      ['POST', '/api/v1/groups/g_1/inbox/peer/read?limit=200', '{}'],
    ]);
  });

  it('uploads multipart fields and files', async () => {
    const sent = recordFetch();
    const file = new File(['# notes'], 'notes.md', { type: 'text/markdown' });
    await api.reply_upload('g_1', { reply_to: 'e1', text: 'see', to: ['peer'], message_mode: 'mail' }, [file]);
    expect(sent[0]).toMatchObject({ method: 'POST', url: '/api/v1/groups/g_1/reply_upload', contentType: undefined });
    const form = sent[0]!.body as FormData;
    expect([...form.keys()]).toEqual(['text', 'to_json', 'message_mode', 'reply_to', 'files']);
    expect(form.get('to_json')).toBe('["peer"]');
    expect((form.get('files') as File).name).toBe('notes.md');
    expect([...uploadForm({}, []).entries()]).toEqual([['text', '']]);
  });

  it('turns {ok: false} into an ApiError with the wire code', async () => {
    recordFetch({ status: 404, body: { ok: false, error: { code: 'group_not_found', message: 'no such group' } } });
    const error = await call('group_show', 'g_x').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 404, code: 'group_not_found' });
  });

  it('builds stream and download URLs', () => {
    expect(routeUrl('ledger_stream', 'g_1', { kinds: ['chat.message', 'actor.add'], since_event_id: 'e9' })).toBe(
      '/api/v1/groups/g_1/ledger/stream?kinds=chat.message%2Cactor.add&since_event_id=e9',
    );
    expect(routeUrl('events_stream')).toBe('/api/v1/events/stream');
    expect(routeUrl('runtime_activity_stream', 'g_1', { replay: true })).toBe('/api/v1/groups/g_1/runtime-activity/stream?replay=true');
    expect(routeUrl('blob', 'g_1', `${'a'.repeat(64)}_notes.md`)).toBe(`/api/v1/groups/g_1/blobs/${'a'.repeat(64)}_notes.md`);
  });
});
