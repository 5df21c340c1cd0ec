import { mkdirSync } from 'node:fs';
import { OpRouter } from '@cccc/ipc-protocol';
import { IpcServer, daemonPaths, ensureCcccHome, type DaemonEndpoint } from '@cccc/ipc-protocol/node';
import type { DaemonConfig } from './config.js';
import { acquireHomeLock } from './lifecycle/home-lock.js';
import { removeRuntimeFiles, removeStaleRuntimeFiles, writeRuntimeFiles } from './lifecycle/runtime-files.js';
import { errorFields, fileLogger, type Logger } from './log.js';
import { Kernel } from './kernel/kernel.js';
import { registerCoreOps } from './ops/core.js';
import { registerKernelOps } from './ops/index.js';
import { cliLauncher } from './runtime/cli-launcher.js';
import { DAEMON_VERSION } from './version.js';

export interface RunningDaemon extends AsyncDisposable {
  readonly endpoint: DaemonEndpoint;
  readonly home: string;
  /** Resolves once the daemon has fully stopped (shutdown op, signal or `stop()`). */
  readonly stopped: Promise<void>;
  /** The in-process kernel, for tests and benchmarks that drive services directly. */
  readonly kernel?: Kernel;
  stop(reason?: string): Promise<void>;
}

export interface StartDaemonOptions {
  /** Also echo log lines here (foreground mode). */
  readonly logEcho?: NodeJS.WritableStream;
}

/**
 * The composition root: lock the home, clean up after a crashed predecessor, build services,
 * bind the transport, publish the endpoint. Nothing is written before the lock is ours.
 */
export async function startDaemon(config: DaemonConfig, options: StartDaemonOptions = {}): Promise<RunningDaemon> {
  const paths = daemonPaths(config.home);
  ensureCcccHome(config.home);
  mkdirSync(paths.dir, { recursive: true, mode: 0o700 });
  const lock = acquireHomeLock(config.home);
  const logger: Logger = fileLogger(paths.log, options.logEcho);
  try {
    const stale = removeStaleRuntimeFiles(config.home);
    if (stale.length > 0) logger.log('warn', 'removed runtime files left by a previous daemon', { files: stale });

    let stopping: Promise<void> | undefined;
    let resolveStopped!: () => void;
    const stopped = new Promise<void>((r) => (resolveStopped = r));
    const requestShutdown = (reason: string) => {
      // Let the current response reach the client before the sockets close.
      setTimeout(() => void stop(reason), 20);
    };

    const router = new OpRouter({
      onInternalError: (error, op) => logger.log('error', 'internal error in op handler', { op, ...errorFields(error) }),
    });
    const cli = cliLauncher(config.cliEntry);
    if (!cli) logger.log('warn', 'no CLI entry configured: claude and codex actors launch without CCCC hooks and MCP wiring');
    const kernel = new Kernel(config.home, logger, config.streams, config.runtime, cli);
    registerCoreOps(router, { requestShutdown, executable: config.cliEntry ?? null });
    registerKernelOps(router, kernel);

    const server = new IpcServer(router);
    let endpoint: DaemonEndpoint;
    if (config.transport.kind === 'unix') {
      await server.listen({ path: paths.sock });
      endpoint = { transport: 'unix', path: paths.sock };
    } else {
      const bound = await server.listen({ host: config.transport.host, port: config.transport.port });
      endpoint = { transport: 'tcp', host: config.transport.host, port: bound.port! };
    }
    writeRuntimeFiles(config.home, endpoint, DAEMON_VERSION);
    logger.log('info', 'daemon started', { version: DAEMON_VERSION, endpoint, home: config.home });
    // Orphans of a crashed predecessor are retired before any actor of ours starts.
    await kernel.actorRuntime.recover();

    const stop = (reason = 'stop requested'): Promise<void> => {
      stopping ??= (async () => {
        logger.log('info', 'daemon stopping', { reason });
        try {
          kernel.streams.closeAll();
          await server.close();
          await kernel[Symbol.asyncDispose]();
        } finally {
          removeRuntimeFiles(config.home);
          lock.release();
          logger.log('info', 'daemon stopped');
          resolveStopped();
        }
      })();
      return stopping;
    };

    return { endpoint, home: config.home, stopped, kernel, stop, [Symbol.asyncDispose]: () => stop('disposed') };
  } catch (error) {
    logger.log('error', 'daemon failed to start', errorFields(error));
    removeRuntimeFiles(config.home);
    lock.release();
    throw error;
  }
}
