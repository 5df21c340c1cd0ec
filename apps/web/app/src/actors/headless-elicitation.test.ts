import { describe, expect, it } from 'vitest';
import { acceptResponse, cardElicitation } from './headless-elicitation';

const form = {
  kind: 'elicitation',
  summary: {
    server_name: 'deploy',
    mode: 'form',
    message: 'Where should I deploy?',
    requested_schema: {
      type: 'object',
      properties: {
        env: { type: 'string', enum: ['staging', 'prod'] },
        region: { type: 'string', title: 'Region', oneOf: [{ const: 'eu', title: 'Europe' }] },
        replicas: { type: 'integer' },
        confirm: { type: 'boolean' },
        note: { type: 'string' },
      },
      required: ['env', 'replicas'],
    },
  },
};

describe('elicitation requests on the card', () => {
  it('reads the message and one field per property; other kinds have none', () => {
    expect(cardElicitation(form)).toEqual({
      server: 'deploy',
      message: 'Where should I deploy?',
      url: null,
      fields: [
        { name: 'env', label: 'env', kind: 'choice', options: ['staging', 'prod'], required: true },
        { name: 'region', label: 'Region', kind: 'choice', options: ['eu'], required: false },
        { name: 'replicas', label: 'replicas', kind: 'integer', options: [], required: true },
        { name: 'confirm', label: 'confirm', kind: 'boolean', options: [], required: false },
        { name: 'note', label: 'note', kind: 'text', options: [], required: false },
      ],
    });
    expect(cardElicitation({ kind: 'question', summary: {} })).toBeNull();
    expect(cardElicitation({ kind: 'elicitation', summary: { server_name: 'auth', mode: 'url', message: 'Log in', url: 'https://x.test' } })).toEqual({ server: 'auth', message: 'Log in', url: 'https://x.test', fields: [] });
  });

  it('builds the accept response once the required fields are filled; numbers must parse', () => {
    const e = cardElicitation(form)!;
    expect(acceptResponse(e, { env: 'prod' })).toBeNull();
    expect(acceptResponse(e, { env: 'prod', replicas: '1.5' })).toBeNull();
    expect(acceptResponse(e, { env: 'prod', replicas: ' 2 ', confirm: true, note: '' })).toEqual({ action: 'accept', content: { env: 'prod', replicas: 2, confirm: true } });
    expect(acceptResponse(cardElicitation({ kind: 'elicitation', summary: { mode: 'url', url: 'https://x.test' } })!, {})).toEqual({ action: 'accept' });
  });
});
