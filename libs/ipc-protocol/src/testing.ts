// Contract kit: `describeIpcContract` runs the same IPC v1 conformance cases against any
// transport (the in-memory loopback, the real daemon over a unix socket or TCP).
export { describeIpcContract, type IpcContractOptions, type IpcContractConnection, type IpcContractCase } from './testing/contract.js';
export { socketContractConnection } from './testing/socket-connection.js';
