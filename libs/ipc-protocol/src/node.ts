// Node-only surface: endpoint discovery, the client, and the socket server.
export { resolveCcccHome, ensureCcccHome, daemonPaths, daemonDir } from './node/home.js';
export { discoverEndpoint, describeEndpoint, type DaemonEndpoint } from './node/endpoint.js';
export { DaemonClient, type DaemonClientOptions, type EventStream, type TermAttachment } from './node/client.js';
export { DaemonCallError, DaemonTransportError, type TransportFailure } from './node/errors.js';
export { IpcServer, type IpcServerOptions, type IpcListenTarget } from './node/server.js';
export { isLoopbackHost } from './node/loopback-host.js';
