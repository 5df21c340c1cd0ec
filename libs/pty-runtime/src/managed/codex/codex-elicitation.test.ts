import { describe, expect, it } from 'vitest';
import { ManagedControlError } from '../runtime-adapter.js';
import { ELICITATION_CANCELLED, elicitationOf, elicitationResponse, elicitationSummary } from './codex-elicitation.js';

const form = {
  threadId: 't1',
  turnId: 'turn1',
  serverName: 'deploy',
  mode: 'form',
  _meta: { private: 'x' },
  message: 'Where to deploy?',
  requestedSchema: {
    type: 'object',
    properties: {
      env: { type: 'string', enum: ['staging', 'prod'] },
      region: { type: 'string', oneOf: [{ const: 'eu', title: 'Europe' }] },
      replicas: { type: 'integer', minimum: 1, maximum: 5 },
      confirm: { type: 'boolean' },
      note: { type: 'string', maxLength: 5 },
      tags: { type: 'array', items: { type: 'string', enum: ['a', 'b'] }, maxItems: 2 },
    },
    required: ['env', 'confirm'],
  },
};
const url = { threadId: 't1', turnId: null, serverName: 'auth', mode: 'url', _meta: null, message: 'Log in', url: 'https://example.test/login', elicitationId: 'e1' };

const refuses = (fn: () => unknown, pattern: RegExp) => {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ManagedControlError);
    expect((error as ManagedControlError).code).toBe('invalid_response');
    expect((error as Error).message).toMatch(pattern);
    return;
  }
  throw new Error('expected invalid_response');
};

describe('MCP elicitation as an interaction', () => {
  const formRequest = elicitationOf(form)!;
  const urlRequest = elicitationOf(url)!;

  it('reads form and URL requests; others are not answerable', () => {
    expect(formRequest.mode).toBe('form');
    expect(urlRequest.mode).toBe('url');
    expect(elicitationOf({ ...form, mode: 'other' })).toBeNull();
    expect(elicitationOf({ ...form, requestedSchema: undefined })).toBeNull();
    expect(elicitationOf({ ...url, url: undefined })).toBeNull();
    expect(elicitationOf({ ...form, serverName: undefined })).toBeNull();
  });

  it('summary: server, mode, message and the form or URL; never _meta', () => {
    expect(elicitationSummary(formRequest)).toEqual({ server_name: 'deploy', mode: 'form', message: 'Where to deploy?', requested_schema: form.requestedSchema });
    expect(elicitationSummary(urlRequest)).toEqual({ server_name: 'auth', mode: 'url', message: 'Log in', url: 'https://example.test/login' });
  });

  it('accept with content that fits the form', () => {
    const content = { env: 'prod', region: 'eu', replicas: 2, confirm: true, note: 'hi', tags: ['a'] };
    expect(elicitationResponse(formRequest, { action: 'accept', content })).toEqual({ action: 'accept', content, _meta: null });
    expect(elicitationResponse(urlRequest, { action: 'accept' })).toEqual({ action: 'accept', content: null, _meta: null });
  });

  it('decline and cancel carry no content', () => {
    expect(elicitationResponse(formRequest, { action: 'decline' })).toEqual({ action: 'decline', content: null, _meta: null });
    expect(elicitationResponse(formRequest, { action: 'cancel', content: null })).toEqual(ELICITATION_CANCELLED);
    refuses(() => elicitationResponse(formRequest, { action: 'decline', content: { env: 'prod' } }), /takes no content/);
  });

  it('refuses answers that do not fit (nothing is sent)', () => {
    const ok = { env: 'prod', confirm: true };
    refuses(() => elicitationResponse(formRequest, 'yes'), /must be an object/);
    refuses(() => elicitationResponse(formRequest, { action: 'ok' }), /accept, decline or cancel/);
    refuses(() => elicitationResponse(formRequest, { action: 'accept' }), /needs response.content/);
    refuses(() => elicitationResponse(formRequest, { action: 'accept', content: { env: 'prod' } }), /"confirm" is required/);
    refuses(() => elicitationResponse(formRequest, { action: 'accept', content: { ...ok, extra: 1 } }), /no field "extra"/);
    refuses(() => elicitationResponse(formRequest, { action: 'accept', content: { ...ok, env: 'dev' } }), /"env" takes one of its options/);
    refuses(() => elicitationResponse(formRequest, { action: 'accept', content: { ...ok, region: 'us' } }), /"region" takes one of its options/);
    refuses(() => elicitationResponse(formRequest, { action: 'accept', content: { ...ok, replicas: 1.5 } }), /takes an integer/);
    refuses(() => elicitationResponse(formRequest, { action: 'accept', content: { ...ok, replicas: 9 } }), /is above 5/);
    refuses(() => elicitationResponse(formRequest, { action: 'accept', content: { ...ok, confirm: 'yes' } }), /true or false/);
    refuses(() => elicitationResponse(formRequest, { action: 'accept', content: { ...ok, note: 'too long' } }), /longer than 5/);
    refuses(() => elicitationResponse(formRequest, { action: 'accept', content: { ...ok, tags: ['c'] } }), /only its options/);
    refuses(() => elicitationResponse(formRequest, { action: 'accept', content: { ...ok, tags: ['a', 'b', 'a'] } }), /at most 2/);
    refuses(() => elicitationResponse(urlRequest, { action: 'accept', content: { token: 'x' } }), /URL elicitation takes no content/);
  });
});
