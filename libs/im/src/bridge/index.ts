export { ImBridge, bindInstructions, type BridgeDaemon, type BridgeLog, type ImBridgeOptions } from './bridge.js';
export { BridgeStateStore, BRIDGE_STATE_FILE } from './bridge-state.js';
export { outboundText, type OutboundSettings } from './outbound.js';
export { acquireTokenLock, tokenLockPath } from './token-lock.js';
export { createAdapter } from './adapter-factory.js';
export { BRIDGE_EXIT } from './main.js';
