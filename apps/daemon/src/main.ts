import { daemonConfigFromEnv, DaemonConfigError } from './config.js';
import { startDaemon } from './daemon.js';
import { HomeLockedError } from './lifecycle/home-lock.js';

export interface ForegroundOptions {
  /** The CLI entry that runs this daemon (see `DaemonConfig.cliEntry`). */
  readonly cliEntry?: string;
  readonly env?: NodeJS.ProcessEnv;
}

/**
 * Run the daemon in the foreground until SIGTERM/SIGINT or a `shutdown` op. Returns the process
 * exit code; refusals (bad config, home owned by another daemon) print one clear line.
 */
export async function runDaemonForeground(options: ForegroundOptions = {}): Promise<number> {
  let daemon;
  try {
    const config = daemonConfigFromEnv(options.env ?? process.env);
    daemon = await startDaemon(options.cliEntry ? { ...config, cliEntry: options.cliEntry } : config);
  } catch (error) {
    if (error instanceof DaemonConfigError || error instanceof HomeLockedError) {
      process.stderr.write(`cccc daemon: ${error.message}\n`);
      return 2;
    }
    process.stderr.write(`cccc daemon: failed to start: ${(error as Error).message}\n`);
    return 1;
  }
  // Handlers first: whoever reads the "listening" line may signal us at once.
  const onSignal = (signal: NodeJS.Signals) => void daemon.stop(signal);
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
  const where = daemon.endpoint.transport === 'unix' ? daemon.endpoint.path : `${daemon.endpoint.host}:${daemon.endpoint.port}`;
  process.stdout.write(`cccc daemon ${process.pid} listening on ${where} (home ${daemon.home})\n`);
  await daemon.stopped;
  process.off('SIGTERM', onSignal);
  process.off('SIGINT', onSignal);
  return 0;
}
