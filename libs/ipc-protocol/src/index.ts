// Browser-safe public surface: schemas, codec, router. Node IO lives in `./node`.
export { DaemonRequestV1, DaemonResponseV1, DaemonErrorV1, okResponse, errorResponse } from './envelope.js';
export { ErrorCodes, IpcError, isIpcError, type KnownErrorCode } from './errors.js';
export { DaemonAddrV1 } from './addr.js';
export {
  CCCSEventV1,
  EventId,
  EventStreamItem,
  EventStreamEventItem,
  EventStreamHeartbeatItem,
  EventStreamErrorItem,
} from './events.js';
export * from './kinds/index.js';
export { TermAttachArgs, TermAttachHandshake } from './ops/streams.js';
export { defineOp, type OpSpec, type OpUpgrade } from './ops/define.js';
export {
  opCatalog,
  isOpName,
  type OpCatalog,
  type OpName,
  type OpArgs,
  type OpArgsInput,
  type OpResult,
} from './ops/catalog.js';
export { NdjsonDecoder, encodeLine, encodeLineText, type DecodedLine } from './codec.js';
export { MAX_REQUEST_LINE_BYTES, MAX_RESPONSE_LINE_BYTES } from './limits.js';
export { OpRouter, type OpHandler, type RequestContext, type Dispatched, type RouterOptions } from './router.js';
export { loopbackConnection, type LoopbackConnection } from './loopback.js';
export { StreamUpgrade, isStreamUpgrade, type UpgradedConnection } from './upgrade.js';
