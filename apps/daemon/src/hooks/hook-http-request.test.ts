import { describe, expect, it } from 'vitest';
import { errorResponse, okResponse } from '@cccc/ipc-protocol';
import { answerOf, hookEventRequest, HOOK_HTTP_MAX_BODY, HOOK_HTTP_PATH, refuseHead } from './hook-http-request.js';

// The pure core of the http hook listener: what is refused before the body, the request it
// builds (the command hook's pick: no prompt, no tool input), and the op's answer as a status.

const headers = { 'x-cccc-group-id': 'g_1', 'x-cccc-actor-id': 'peer1', 'x-cccc-launch-token': 'tok' };
const head = (over: Partial<{ method: string; url: string; headers: Record<string, string> }> = {}) => ({ method: 'POST', url: HOOK_HTTP_PATH, headers, ...over });

describe('http hook request core', () => {
  it('refuses by path, method, identity and declared length before reading the body', () => {
    expect(refuseHead(head())).toBeNull();
    expect(refuseHead(head({ url: '/other' }))?.status).toBe(404);
    expect(refuseHead(head({ method: 'GET' }))?.status).toBe(405);
    expect(refuseHead(head({ headers: { ...headers, 'x-cccc-launch-token': '' } }))).toEqual({ status: 401, reason: 'missing_launch_token' });
    expect(refuseHead(head({ headers: { ...headers, 'x-cccc-actor-id': '$CCCC_ACTOR_ID' } }))).toEqual({ status: 401, reason: 'missing_actor_id' });
    expect(refuseHead(head({ headers: { ...headers, 'x-cccc-launch-token': 'x'.repeat(129) } }))?.status).toBe(401);
    expect(refuseHead(head({ headers: { ...headers, 'content-length': String(HOOK_HTTP_MAX_BODY + 1) } }))?.status).toBe(413);
  });

  it('builds the command hook\'s runtime_hook_event request: identity from headers, the picked payload only', () => {
    const prompt = '[cccc] user → peer1 [event_id=e1]: SECRET';
    const built = hookEventRequest(head(), JSON.stringify({ hook_event_name: 'UserPromptSubmit', session_id: 's', prompt_id: 'p', prompt, cwd: '/x' }), 1234);
    expect('request' in built).toBe(true);
    if (!('request' in built)) return;
    expect(built.request).toMatchObject({ v: 1, op: 'runtime_hook_event', args: { group_id: 'g_1', actor_id: 'peer1', runtime: 'claude', launch_token: 'tok', fired_at_ms: 1234 } });
    expect(built.request.args.payload).toEqual({ hook_event_name: 'UserPromptSubmit', session_id: 's', prompt_id: 'p', prompt_marks: expect.any(Array) });
    expect(JSON.stringify(built.request)).not.toContain('SECRET');
    expect(hookEventRequest(head(), 'nope', 0)).toEqual({ answer: { status: 400, reason: 'body_not_json' } });
    expect(hookEventRequest(head(), '{"hook_event_name":"Stop"}', 0)).toEqual({ answer: { status: 400, reason: 'bad_payload: payload.session_id' } });
  });

  it('maps the op answer: 200 only when committed', () => {
    expect(answerOf(okResponse({ accepted: true }))).toEqual({ status: 200, reason: 'accepted' });
    expect(answerOf(okResponse({ accepted: false, reason: 'launch_token_mismatch' })).status).toBe(403);
    expect(answerOf(okResponse({ accepted: false, reason: 'no_hooked_launch' })).status).toBe(403);
    expect(answerOf(okResponse({ accepted: false, reason: 'bad_payload: unknown event' })).status).toBe(400);
    expect(answerOf(okResponse({ accepted: false, reason: 'stale_session' })).status).toBe(409);
    expect(answerOf(errorResponse('actor_not_found', 'x')).status).toBe(404);
    expect(answerOf(errorResponse('invalid_request', 'x')).status).toBe(400);
    expect(answerOf(errorResponse('internal_error', 'x')).status).toBe(500);
  });
});
