import { describe, expect, it } from 'vitest';
import { permissionsRequestOf, permissionsResponse, permissionsSummary } from './codex-permissions.js';

const params = {
  threadId: 't1',
  turnId: 'turn1',
  itemId: 'i1',
  environmentId: null,
  startedAtMs: 1,
  cwd: '/work/p',
  reason: 'fetch the docs',
  permissions: { network: { enabled: true }, fileSystem: { read: ['/etc/hosts'], write: null } },
};

describe('codex item/permissions/requestApproval as a permission', () => {
  const request = permissionsRequestOf(params)!;

  it('reads the request; params without a thread or permissions are not answerable', () => {
    expect(request.threadId).toBe('t1');
    expect(permissionsRequestOf({ threadId: 't1' })).toBeNull();
    expect(permissionsRequestOf({ permissions: {} })).toBeNull();
    expect(permissionsRequestOf(undefined)).toBeNull();
  });

  it('summary: the extra access asked for, where and why', () => {
    expect(permissionsSummary(request)).toEqual({ cwd: '/work/p', reason: 'fetch the docs', network: { enabled: true }, file_system: { read: ['/etc/hosts'], write: [] } });
    expect(permissionsSummary({ ...request, reason: null, permissions: { network: null, fileSystem: null } })).toEqual({ cwd: '/work/p' });
  });

  it('allow grants exactly what was asked for this turn only; deny grants nothing', () => {
    expect(permissionsResponse(request, true)).toEqual({ permissions: { network: { enabled: true }, fileSystem: { read: ['/etc/hosts'], write: null } }, scope: 'turn' });
    expect(permissionsResponse({ ...request, permissions: { network: null, fileSystem: { read: null, write: ['/tmp/x'] } } }, true)).toEqual({
      permissions: { fileSystem: { read: null, write: ['/tmp/x'] } },
      scope: 'turn',
    });
    expect(permissionsResponse(request, false)).toEqual({ permissions: {}, scope: 'turn' });
  });
});
