import { getSystemErrorName } from 'node:util';

// node:net is a JavaScript stream (node:stream and ~27 modules under it) over libuv's pipe handle.
// A process that starts, makes one call and exits (`cccc ping`, `cccc send`, a hook at an agent's
// tool call) spends ~4 ms of a ~40 ms life loading and first running that stream code (issue 35:
// a whole bare script that pings over node:net was 1.32x `node -e 0`, the same over the handle
// 1.20x). So such a call talks to the handle itself, as node:net does, through the bindings
// `process.binding` still hands out.
//
// `process.binding` is deprecated (DEP0111, documentation-only) and the handle's interface is
// node's internal one, so the handle is used only where it was verified and only as it was found:
// on the node majors this project tests, when `process.binding` warns nobody (no
// --pending-deprecation) and is allowed (the permission model refuses it), and when every piece
// has the shape node:net itself uses. Anywhere else the caller takes node:net, which does the same
// exchange; pipe-exchange.test.ts runs both on the same inputs.

/** The node majors whose pipe handle pipe-exchange.test.ts has run against (CI runs node 20). */
export const VERIFIED_NODE_MAJORS: ReadonlySet<number> = new Set([20]);

/** libuv's pipe handle, as node:net drives it (node's lib/net.js and stream_base_commons.js). */
export interface PipeHandle {
  /** 0, or a negative libuv error; the outcome arrives at the request's `oncomplete`. */
  connect(req: ConnectReq, path: string): number;
  /** Adopts an open pipe or socket descriptor (as node's stdin stream does); 0 or a libuv error. */
  open(fd: number): number;
  readStart(): number;
  readStop(): number;
  /** 0, or a negative libuv error; the request's `oncomplete` runs when the write was async. */
  writeUtf8String(req: WriteReq, data: string): number;
  close(callback?: () => void): void;
  /**
   * Called with each read's buffer; the byte count (or error) is in the shared stream state.
   * Only ever a function: node asserts it is one, and aborts the process otherwise.
   */
  onread: (buffer: ArrayBuffer | undefined) => void;
}

export interface ConnectReq {
  oncomplete: (status: number) => void;
}

export interface WriteReq {
  handle: PipeHandle;
  oncomplete: (status: number) => void;
}

export interface PipeBindings {
  newHandle(): PipeHandle;
  newConnectReq(): ConnectReq;
  newWriteReq(handle: PipeHandle): WriteReq;
  /** The last read's byte count (negative: a libuv error, `EOF` at the end) and buffer offset. */
  lastRead(): { readonly nread: number; readonly offset: number };
  /** `ENOENT` for libuv's -2, `EOF` for its end of stream. */
  errorName(code: number): string;
}

export interface PipeEnvironment {
  readonly nodeVersion: string;
  readonly execArgv: readonly string[];
  readonly env: NodeJS.ProcessEnv;
  readonly binding: ((name: string) => unknown) | undefined;
}

/** `process.binding`, which node's type definitions leave out (it is deprecated). */
const legacyBinding = (process as unknown as { binding?: (name: string) => unknown }).binding;

const processEnvironment = (): PipeEnvironment => ({
  nodeVersion: process.versions.node,
  execArgv: process.execArgv,
  env: process.env,
  binding: typeof legacyBinding === 'function' ? (name) => legacyBinding.call(process, name) : undefined,
});

/** Whether `process.binding` would print DEP0111 here. */
function pendingDeprecation(environment: PipeEnvironment): boolean {
  const flag = '--pending-deprecation';
  return environment.execArgv.includes(flag) || (environment.env.NODE_OPTIONS ?? '').split(/\s+/).includes(flag) || environment.env.NODE_PENDING_DEPRECATION === '1';
}

type Ctor = new (...args: unknown[]) => object;
const isCtor = (value: unknown): value is Ctor => typeof value === 'function';
const isIndex = (value: unknown): value is number => Number.isInteger(value) && (value as number) >= 0;

/** The handle's bindings here, or undefined when the caller must use node:net (see above). */
export function findPipeBindings(environment: PipeEnvironment = processEnvironment()): PipeBindings | undefined {
  if (!VERIFIED_NODE_MAJORS.has(Number(environment.nodeVersion.split('.')[0]))) return undefined;
  if (!environment.binding || pendingDeprecation(environment)) return undefined;
  let pipeWrap: Record<string, unknown>;
  let streamWrap: Record<string, unknown>;
  try {
    pipeWrap = environment.binding('pipe_wrap') as Record<string, unknown>;
    streamWrap = environment.binding('stream_wrap') as Record<string, unknown>;
  } catch {
    return undefined; // e.g. the permission model's ERR_ACCESS_DENIED
  }
  const { Pipe, PipeConnectWrap } = pipeWrap;
  const socketType = (pipeWrap.constants as Record<string, unknown> | undefined)?.SOCKET;
  const { WriteWrap, streamBaseState: state, kReadBytesOrError, kArrayBufferOffset } = streamWrap;
  if (!isCtor(Pipe) || !isCtor(PipeConnectWrap) || !isCtor(WriteWrap) || typeof socketType !== 'number') return undefined;
  if (!(state instanceof Int32Array) || !isIndex(kReadBytesOrError) || !isIndex(kArrayBufferOffset)) return undefined;
  const methods = ['connect', 'open', 'readStart', 'readStop', 'writeUtf8String', 'close'];
  if (!methods.every((m) => typeof (Pipe.prototype as Record<string, unknown>)[m] === 'function')) return undefined;
  return {
    newHandle: () => new Pipe(socketType) as unknown as PipeHandle,
    newConnectReq: () => new PipeConnectWrap() as unknown as ConnectReq,
    newWriteReq: (handle) => Object.assign(new WriteWrap() as unknown as WriteReq, { handle, oncomplete: () => {} }),
    lastRead: () => ({ nread: state[kReadBytesOrError]!, offset: state[kArrayBufferOffset]! }),
    errorName: (code) => {
      try {
        return getSystemErrorName(code);
      } catch {
        return `E${code}`;
      }
    },
  };
}

let found: { bindings: PipeBindings | undefined } | undefined;

/** This process's pipe bindings (looked up once), or undefined: use node:net. */
export function pipeBindings(): PipeBindings | undefined {
  found ??= { bindings: findPipeBindings() };
  return found.bindings;
}
