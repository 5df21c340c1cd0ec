import { describe, expect, it } from 'vitest';
import { findPipeBindings, VERIFIED_NODE_MAJORS, type PipeEnvironment } from './pipe-bindings.js';

// When a one-shot call may use libuv's pipe handle (pipe-bindings.ts): only as it was verified,
// and never where process.binding would warn or is refused.

const realBinding = (name: string): unknown => (process as unknown as { binding: (n: string) => unknown }).binding(name);
const here: PipeEnvironment = { nodeVersion: process.versions.node, execArgv: [], env: {}, binding: realBinding };

describe('findPipeBindings', () => {
  it('finds the handle on the node this project tests', () => {
    expect(VERIFIED_NODE_MAJORS.has(Number(process.versions.node.split('.')[0]))).toBe(true);
    const pipe = findPipeBindings(here);
    expect(pipe).toBeDefined();
    expect(pipe!.errorName(-2)).toBe('ENOENT');
    expect(pipe!.errorName(-4095)).toBe('EOF');
  });

  it('leaves node:net to a node major it was not verified on', () => {
    expect(findPipeBindings({ ...here, nodeVersion: '99.0.0' })).toBeUndefined();
  });

  it('never makes process.binding print its deprecation: --pending-deprecation in argv or NODE_OPTIONS, NODE_PENDING_DEPRECATION=1', () => {
    expect(findPipeBindings({ ...here, execArgv: ['--pending-deprecation'] })).toBeUndefined();
    expect(findPipeBindings({ ...here, env: { NODE_OPTIONS: '--max-old-space-size=100 --pending-deprecation' } })).toBeUndefined();
    expect(findPipeBindings({ ...here, env: { NODE_PENDING_DEPRECATION: '1' } })).toBeUndefined();
    expect(findPipeBindings({ ...here, env: { NODE_PENDING_DEPRECATION: '0', NODE_OPTIONS: '--no-warnings' } })).toBeDefined();
  });

  it('takes node:net when process.binding is gone or refused (the permission model)', () => {
    expect(findPipeBindings({ ...here, binding: undefined })).toBeUndefined();
    const refused = (): never => {
      throw Object.assign(new Error('Access to this API has been restricted'), { code: 'ERR_ACCESS_DENIED' });
    };
    expect(findPipeBindings({ ...here, binding: refused })).toBeUndefined();
  });

  it('takes node:net when any piece lacks the shape node:net itself uses', () => {
    const without = (module: string, key: string, value: unknown = undefined): PipeEnvironment => ({
      ...here,
      binding: (name) => (name === module ? { ...(realBinding(name) as object), [key]: value } : realBinding(name)),
    });
    expect(findPipeBindings(without('pipe_wrap', 'Pipe'))).toBeUndefined();
    expect(findPipeBindings(without('pipe_wrap', 'PipeConnectWrap'))).toBeUndefined();
    expect(findPipeBindings(without('pipe_wrap', 'constants', {}))).toBeUndefined();
    expect(findPipeBindings(without('stream_wrap', 'WriteWrap'))).toBeUndefined();
    expect(findPipeBindings(without('stream_wrap', 'streamBaseState', []))).toBeUndefined();
    expect(findPipeBindings(without('stream_wrap', 'kReadBytesOrError', -1))).toBeUndefined();
    class NoReads {
      connect(): number {
        return 0;
      }
    }
    expect(findPipeBindings(without('pipe_wrap', 'Pipe', NoReads))).toBeUndefined();
  });
});
