// `@cccc/ipc-protocol/call`: call an op once, find a home's daemon, and the error classes, with
// no zod and no op catalog behind them (the catalog's types are erased). A process that starts,
// calls and exits (a `cccc` command) spends most of its start-up loading zod and the schemas
// otherwise; call.test.ts keeps this entry's module graph free of them, and of node:net (its
// stream modules are ~4 ms of such a process; one-shot-exchange.ts). The classes are the same
// ones the other entries export (one shared module), so `instanceof` holds across entries.
export { callOp, type CallOptions } from './node/call-op.js';
export { checkResponse, startFailureIn, type CheckedResponse, type CheckedError, type StartFailure } from './response-check.js';
export { resolveCcccHome, ensureCcccHome, daemonPaths, daemonDir } from './node/home.js';
export { discoverEndpoint } from './node/discover.js';
export { describeEndpoint, discoverEndpointWith, type DaemonEndpoint, type SocketAddress } from './node/endpoint.js';
// One request line, one answer line (a hook's exchange); node:net is loaded only where it must be.
export { exchangeOneShot } from './node/one-shot-exchange.js';
export type { LineExchangeOptions } from './node/line-exchange.js';
// The pipe handle itself, for a short-lived process's other pipes (a hook's stdin).
export { pipeBindings, type PipeBindings, type PipeHandle } from './node/pipe-bindings.js';
export { monotonicMs } from './node/monotonic.js';
// A hook (`cccc hook claude-state`) is such a process too: the payload pick it sends.
export { PAYLOAD_FIELDS, pickStatePayload, type StatePayload } from './hook-payload-pick.js';
export { DaemonCallError, DaemonTransportError, type TransportFailure } from './node/errors.js';
export { IpcError, ErrorCodes, isIpcError, type KnownErrorCode } from './errors.js';
export { DELIVERY_CONFIRMATION_KIND } from './kinds/delivery-confirmation-kind.js';
