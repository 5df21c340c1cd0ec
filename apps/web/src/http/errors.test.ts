import { DaemonCallError, DaemonTransportError } from '@cccc/ipc-protocol/node';
import { describe, expect, it } from 'vitest';
import { HttpError, statusForCode, toErrorResponse } from './errors.js';
import { Router } from './router.js';

describe('status mapping', () => {
  it.each([
    ['invalid_request', 400],
    ['missing_group_id', 400],
    ['unsupported_message_fields', 400],
    ['unauthorized', 401],
    ['permission_denied', 403],
    ['group_not_found', 404],
    ['actor_not_found', 404],
    ['actor_exists', 409],
    ['actor_not_running', 409],
    ['terminal_not_writer', 409],
    ['not_pty_actor', 409],
    ['payload_too_large', 413],
    ['internal_error', 500],
    ['daemon_unavailable', 502],
  ])('%s → %i', (code, status) => {
    expect(statusForCode(code)).toBe(status);
  });

  it('keeps daemon codes, message and details; transport failures are 502', () => {
    const call = toErrorResponse(new DaemonCallError('group_show', { code: 'group_not_found', message: 'no such group', details: { group_id: 'g' } }));
    expect(call).toEqual({ status: 404, error: { code: 'group_not_found', message: 'no such group', details: { group_id: 'g' } } });
    const down = toErrorResponse(new DaemonTransportError('connect', 'connect ENOENT', false));
    expect(down).toMatchObject({ status: 502, error: { code: 'daemon_unavailable', details: { failure: 'connect' } } });
    expect(toErrorResponse(new Error('boom'))).toMatchObject({ status: 500, error: { code: 'internal_error' } });
    expect(toErrorResponse(new HttpError(418, 'teapot', 'short and stout'))).toMatchObject({ status: 418, error: { code: 'teapot' } });
  });
});

describe('Router', () => {
  const r = new Router('/api/v1').get('/groups/:gid', () => 'show').post('/groups/:gid/actors/:aid/start', () => 'start');

  it('matches params (decoded) and methods', () => {
    expect(r.match('GET', '/api/v1/groups/g%5F1').params).toEqual({ gid: 'g_1' });
    expect(r.match('POST', '/api/v1/groups/g/actors/a1/start').params).toEqual({ gid: 'g', aid: 'a1' });
  });

  it('404 for unknown paths, 405 for a known path with another method', () => {
    expect(() => r.match('GET', '/api/v1/nope')).toThrow(expect.objectContaining({ status: 404, code: 'unknown_route' }));
    expect(() => r.match('DELETE', '/api/v1/groups/g')).toThrow(expect.objectContaining({ status: 405 }));
    expect(() => r.match('GET', '/api/v1/groups/%E0%A4%A')).toThrow(expect.objectContaining({ status: 404 }));
  });
});
