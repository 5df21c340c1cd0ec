import { mkdirSync } from 'node:fs';
import { CapabilityPaths, CapabilityService, NodeExternalRuntime } from '@cccc/capabilities';
import { HomeLayout, readObservability } from '@cccc/groups';
import { OpRouter } from '@cccc/ipc-protocol';
import { FileLeaseStore, VoiceAsrService } from '@cccc/voice';
import { VoiceDocuments } from './voice/voice-documents.js';
import { VoiceInput } from './voice/voice-input.js';
import { IpcServer, daemonPaths, ensureCcccHome, type DaemonEndpoint } from '@cccc/ipc-protocol/node';
import { KeyedMutex } from './concurrency/keyed-mutex.js';
import type { DaemonConfig } from './config.js';
import { ContextService } from './context/context-service.js';
import { TrackedSend } from './context/tracked-send.js';
import { DeliveryService } from './delivery/delivery-service.js';
import { confirmationRecorder } from './hooks/confirmation-record.js';
import { DeliveryConfirmations } from './hooks/delivery-confirmations.js';
import { hookAcceptance } from './hooks/hook-acceptance.js';
import { HookChannel } from './hooks/hook-channel.js';
import { HookHttpListener } from './hooks/hook-http-listener.js';
import { WorkingStateService } from './hooks/working-state-service.js';
import { CommitHooks } from './kernel/commit-hooks.js';
import { EventFanout } from './kernel/event-fanout.js';
import { GlobalFeed } from './kernel/global-feed.js';
import { GroupDocCache } from './kernel/group-cache.js';
import { LedgerPool } from './kernel/ledger-pool.js';
import { acquireHomeLock } from './lifecycle/home-lock.js';
import { removeRuntimeFiles, removeStaleRuntimeFiles, writeRuntimeFiles } from './lifecycle/runtime-files.js';
import { errorFields, fileLogger, LogThreshold, type Logger } from './log.js';
import { MemoryService } from './memory/memory-service.js';
import { SpaceService } from './space/space-service.js';
import { ImService } from './im/im-service.js';
import { BridgeSupervisor } from './im/bridge-supervisor.js';
import { MessagingService } from './messaging/messaging-service.js';
import { AutomationScheduler } from './automation/automation-scheduler.js';
import { AutomationService } from './automation/automation-service.js';
import { AutomationClock } from './automation/automation-clock.js';
import type { Dispatch } from './automation/automation-actions.js';
import { registerCoreOps } from './ops/core.js';
import { registerDaemonOps } from './ops/index.js';
import { registerHermesOps } from './ops/hermes.js';
import { ActorRuntimeService } from './runtime/actor-runtime-service.js';
import { sessionInputDrain } from './runtime/input-drain.js';
import { cliLauncher } from './runtime/cli-launcher.js';
import { RuntimeRegistry } from './runtime/runtime-registry.js';
import { ActivityHub } from './streams/activity-hub.js';
import { StreamHub } from './streams/stream-hub.js';
import { DAEMON_VERSION } from './version.js';

/**
 * Every service of a running daemon, built once below. Only this file and test fixtures see the
 * whole; each service and op module is handed the narrow part it names.
 */
export type DaemonServices = ReturnType<typeof buildServices>;

export interface RunningDaemon extends AsyncDisposable {
  readonly endpoint: DaemonEndpoint;
  readonly home: string;
  /** Resolves once the daemon has fully stopped (shutdown op, signal or `stop()`). */
  readonly stopped: Promise<void>;
  /** The in-process services, for test fixtures and benchmarks that drive them directly. */
  readonly services: DaemonServices;
  stop(reason?: string): Promise<void>;
}

export interface StartDaemonOptions {
  /** Also echo log lines here (foreground mode). */
  readonly logEcho?: NodeJS.WritableStream;
}

/** The stored `observability.log_level`; a settings file that cannot be read means the default. */
function observabilityLogLevel(home: string): string {
  try {
    return readObservability(new HomeLayout(home)).log_level;
  } catch {
    return 'INFO';
  }
}

/** The service graph, leaves first. Nothing here touches the disk or the network. */
function buildServices(config: DaemonConfig, logger: Logger, logThreshold: LogThreshold, dispatch: Dispatch, hookHttp: HookHttpListener | undefined) {
  const layout = new HomeLayout(config.home);
  const groups = new GroupDocCache(layout);
  const streams = new StreamHub();
  const globalFeed = new GlobalFeed();
  const commits = new CommitHooks();
  const fanout = new EventFanout(streams, globalFeed, commits);
  // Publishing follows appending: every store the pool opens reports its appends to the fan-out.
  const ledgers = new LedgerPool(layout, groups, (event) => fanout.appended(event));
  const groupLocks = new KeyedMutex();
  const runtimes = new RuntimeRegistry();
  const activity = new ActivityHub();
  // Hook state, launch records and runtime activity: in memory, written through to the spec's files.
  const hookChannel = new HookChannel(layout);
  const store = { layout, groups, ledgers, groupLocks };

  const cli = cliLauncher(config.cliEntry);
  if (!cli) logger.log('warn', 'no CLI entry configured: claude and codex actors launch without CCCC hooks and MCP wiring');
  const confirmations = new DeliveryConfirmations({ windowMs: config.runtime.deliveryConfirmMs, record: confirmationRecorder(ledgers, logger) });
  const inputDrain = sessionInputDrain(confirmations, config.runtime.stopDrainMs);
  const actorRuntime = new ActorRuntimeService({ ...store, runtimes, hookChannel, logger, inputDrain, claudeHookUrl: () => hookHttp?.url }, config.runtime, cli);
  const workingState = new WorkingStateService(
    { hookChannel, groups, ledgers, runtimes, logger, managed: (g, a) => actorRuntime.managedSession(g, a)?.session.state(), managedRunner: (g, a) => actorRuntime.managedSession(g, a)?.runner, managedStateSource: (g, a) => actorRuntime.managedSession(g, a)?.stateSource },
    config.runtime.workingStateTickMs,
  );
  // A managed session's own events move its state: actor_list and actor.activity follow at once.
  actorRuntime.managed.onStateChanged(({ groupId, actorId }) => void workingState.refreshGroup(groupId, actorId).catch(() => undefined));
  const hookAccepted = hookAcceptance({ runtimes, confirmations, workingState, logger });
  const delivery = new DeliveryService({ ...store, runtimes, commits, actorRuntime, workingState, confirmations, logger }, config.runtime);
  const messaging = new MessagingService({ ...store, commits });
  const context = new ContextService(store);
  const trackedSend = new TrackedSend({ groups, groupLocks, logger, messaging, context });
  const automationClock = new AutomationClock();
  const automation = new AutomationService({ ...store, now: () => automationClock.now() });
  const automationScheduler = new AutomationScheduler(
    { ...store, logger, automation, dispatch, now: () => automationClock.now(), isRunning: (g, a) => actorRuntime.isRunning(g, a) },
    config.runtime.automationTickMs,
  );
  const capabilityPaths = new CapabilityPaths(config.home);
  const capabilities = new CapabilityService({
    home: config.home,
    limits: config.capabilities,
    external: new NodeExternalRuntime({ cacheDir: capabilityPaths.cacheDir }),
    publishChange: async (groupId, by, data) => {
      await ledgers.append(groupId, { kind: 'capability.changed', by, data: { ...data } });
    },
  });
  const memory = new MemoryService({ layout, groups });
  const space = new SpaceService({ layout, groups, home: config.home });
  const im = new ImService({ layout, groups, groupLocks });
  const imBridges = new BridgeSupervisor({ home: config.home, im, logger });
  commits.onPublished((events) => imBridges.published(events));
  const voiceLease = new FileLeaseStore(config.home);
  const voiceDocuments = new VoiceDocuments({ ...store, voiceLease });
  const voiceInput = new VoiceInput({ ...store, messaging, runtimes });
  const voiceAsr = new VoiceAsrService(config.home);

  return {
    ...store,
    logger,
    logThreshold,
    streams,
    globalFeed,
    commits,
    fanout,
    runtimes,
    activity,
    hookChannel,
    hookHttp,
    streamTuning: config.streams,
    actorRuntime,
    workingState,
    confirmations,
    hookAccepted,
    delivery,
    messaging,
    context,
    trackedSend,
    automationClock,
    automation,
    automationScheduler,
    capabilities,
    memory,
    space,
    im,
    imBridges,
    voiceLease,
    voiceDocuments,
    voiceInput,
    voiceAsr,
    /** Stops every service, newest first; ledgers close last. */
    async [Symbol.asyncDispose](): Promise<void> {
      automationScheduler[Symbol.dispose]();
      // Bridges first: they are daemon clients and must not outlive it.
      await imBridges.close();
      streams.closeAll();
      activity.closeAll();
      workingState[Symbol.dispose]();
      confirmations[Symbol.dispose]();
      delivery[Symbol.dispose]();
      memory[Symbol.dispose]();
      space[Symbol.dispose]();
      voiceAsr.close();
      await actorRuntime[Symbol.asyncDispose]();
      await capabilities.close();
      await ledgers[Symbol.asyncDispose]();
    },
  };
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
  const logThreshold = new LogThreshold();
  const logger: Logger = fileLogger(paths.log, options.logEcho, logThreshold);
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
    logThreshold.setFromName(observabilityLogLevel(config.home));
    // Automation actions are ops, dispatched in-process exactly as a client's request would be.
    const dispatch: Dispatch = async (op, args) => (await router.dispatch({ v: 1, op, args })).response;
    // Claude's http hooks are served through the same router as the command hook's request.
    // Without a CLI entry no launch is hooked at all, so there is nothing to listen for.
    const hookHttp = config.runtime.claudeHttpHooks && config.cliEntry ? new HookHttpListener((request) => router.dispatch(request), logger) : undefined;
    const services = buildServices(config, logger, logThreshold, dispatch, hookHttp);
    registerCoreOps(router, { requestShutdown, executable: config.cliEntry ?? null });
    registerDaemonOps(router, services);
    registerHermesOps(router, { home: config.home, cli: cliLauncher(config.cliEntry), env: process.env });

    const server = new IpcServer(router, config.connections);
    let endpoint: DaemonEndpoint;
    if (config.transport.kind === 'unix') {
      await server.listen({ path: paths.sock });
      endpoint = { transport: 'unix', path: paths.sock };
    } else {
      const bound = await server.listen({ host: config.transport.host, port: config.transport.port });
      endpoint = { transport: 'tcp', host: config.transport.host, port: bound.port! };
    }
    // Bound before any actor starts, so every claude launch can be handed its URL.
    const hookPort = await hookHttp?.listen();
    writeRuntimeFiles(config.home, endpoint, DAEMON_VERSION);
    logger.log('info', 'daemon started', { version: DAEMON_VERSION, endpoint, home: config.home, ...(hookPort ? { hook_http_port: hookPort } : {}) });
    // Orphans of a crashed predecessor are retired before any actor of ours starts.
    await services.actorRuntime.recover();
    // Clocks are rebased before the first tick: a restart never fires work missed while down.
    await services.automationScheduler.start();
    // IM bridges connect back through the socket, so they start once it listens.
    services.imBridges.start();

    const stop = (reason = 'stop requested'): Promise<void> => {
      stopping ??= (async () => {
        logger.log('info', 'daemon stopping', { reason });
        try {
          // IM bridges are daemon clients: stopped first, so none reads a closing stream as a failure.
          await services.imBridges.close();
          services.streams.closeAll();
          await server.close();
          await services[Symbol.asyncDispose]();
          // After the actors stopped: their last hooks (Stop, SessionEnd) still reach the daemon.
          await hookHttp?.close();
        } finally {
          removeRuntimeFiles(config.home);
          lock.release();
          logger.log('info', 'daemon stopped');
          resolveStopped();
        }
      })();
      return stopping;
    };

    return { endpoint, home: config.home, stopped, services, stop, [Symbol.asyncDispose]: () => stop('disposed') };
  } catch (error) {
    logger.log('error', 'daemon failed to start', errorFields(error));
    removeRuntimeFiles(config.home);
    lock.release();
    throw error;
  }
}
