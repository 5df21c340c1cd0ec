export { startDaemon, type RunningDaemon, type StartDaemonOptions } from './daemon.js';
export { daemonConfigFromEnv, DaemonConfigError, type DaemonConfig, type TransportConfig } from './config.js';
export { HomeLockedError } from './lifecycle/home-lock.js';
export { runDaemonForeground, type ForegroundOptions } from './main.js';
export { COMPATIBILITY, DAEMON_VERSION, IMPLEMENTATION } from './version.js';
