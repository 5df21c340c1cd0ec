// Node-only surface: endpoint discovery, the client, and the socket server. The discovery and the
// one-line exchange (endpoint.ts, line-exchange.ts and what they import) load nothing but
// node:net: `cccc hook`'s bundle inlines them from here (apps/cli/src/hook-main.test.ts checks).
export { resolveCcccHome, ensureCcccHome, daemonPaths, daemonDir } from './node/home.js';
export { discoverEndpoint } from './node/discover.js';
export { discoverEndpointWith, endpointFromDescriptor, describeEndpoint, type DaemonEndpoint, type SocketAddress } from './node/endpoint.js';
export { exchangeLine, type ExchangedLine, type LineExchangeOptions } from './node/line-exchange.js';
export { monotonicMs } from './node/monotonic.js';
// Dependency-free as well: `cccc ping|send|reply`'s fast path (apps/cli cli-fast.cjs) words a
// failed connect and caps the answer as DaemonClient does.
export { connectFailureCode } from './node/errors.js';
export { MAX_RESPONSE_LINE_BYTES } from './limits.js';
// Dependency-free too: `cccc hook` computes a UserPromptSubmit's prompt marks with it.
// Dependency-free too: the hook payload pick of both hook transports (command and HTTP).
export { PAYLOAD_FIELDS, pickStatePayload, type StatePayload } from './hook-payload-pick.js';
export { promptMarks, typedMark, markOfLine, squashLine, PROMPT_MARK_PATTERN, MAX_PROMPT_MARKS } from './prompt-marks.js';
export { callOp, type CallOptions } from './node/call-op.js';
export { DaemonClient, type DaemonClientOptions, type EventStream, type TermAttachment } from './node/client.js';
export { DaemonCallError, DaemonTransportError, type TransportFailure } from './node/errors.js';
export { IpcServer, type IpcServerOptions, type IpcListenTarget } from './node/server.js';
export { isLoopbackHost } from './node/loopback-host.js';
