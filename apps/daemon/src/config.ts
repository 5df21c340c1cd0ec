import { isLoopbackHost, resolveCcccHome } from '@cccc/ipc-protocol/node';

export type TransportConfig =
  | { readonly kind: 'unix' }
  | { readonly kind: 'tcp'; readonly host: string; readonly port: number };

export interface DaemonConfig {
  readonly home: string;
  readonly transport: TransportConfig;
}

/** A configuration the daemon refuses to start with; the message is for a person. */
export class DaemonConfigError extends Error {
  override name = 'DaemonConfigError';
}

/** §3.3: CCCC_DAEMON_TRANSPORT / _HOST / _PORT; TCP only on loopback, checked before binding. */
export function daemonConfigFromEnv(env: NodeJS.ProcessEnv = process.env): DaemonConfig {
  const home = resolveCcccHome(env);
  const kind = (env.CCCC_DAEMON_TRANSPORT ?? 'unix').trim().toLowerCase() || 'unix';
  if (kind === 'unix') return { home, transport: { kind: 'unix' } };
  if (kind !== 'tcp') {
    throw new DaemonConfigError(`CCCC_DAEMON_TRANSPORT must be "unix" or "tcp", not ${JSON.stringify(env.CCCC_DAEMON_TRANSPORT)}`);
  }
  const host = (env.CCCC_DAEMON_HOST ?? '').trim() || '127.0.0.1';
  if (!isLoopbackHost(host)) {
    throw new DaemonConfigError(
      `refusing to bind daemon IPC to non-loopback host ${host}: the IPC has no authentication. ` +
        'Use 127.0.0.1 (or ::1), and the authenticated Web port for remote access.',
    );
  }
  const rawPort = (env.CCCC_DAEMON_PORT ?? '').trim() || '0';
  const port = Number(rawPort);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new DaemonConfigError(`CCCC_DAEMON_PORT must be an integer in 0..65535, not ${JSON.stringify(rawPort)}`);
  }
  return { home, transport: { kind: 'tcp', host, port } };
}
