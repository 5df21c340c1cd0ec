import { HomeLayout } from '@cccc/groups';
import type { CCCSEventV1 } from '@cccc/ipc-protocol';
import type { AppendInput, AppendResult, FileLedgerStore } from '@cccc/ledger';
import { KeyedMutex } from '../concurrency/keyed-mutex.js';
import type { RuntimeTuning, StreamTuning } from '../config.js';
import { DeliveryService } from '../delivery/delivery-service.js';
import { DeliveryConfirmations, type ConfirmationOutcome } from '../hooks/delivery-confirmations.js';
import { HookChannel } from '../hooks/hook-channel.js';
import { WorkingStateService } from '../hooks/working-state-service.js';
import { errorFields } from '../log.js';
import { ActorRuntimeService } from '../runtime/actor-runtime-service.js';
import type { CliLauncher } from '../runtime/cli-launcher.js';
import type { Logger } from '../log.js';
import { RuntimeRegistry } from '../runtime/runtime-registry.js';
import { ActivityHub } from '../streams/activity-hub.js';
import { StreamHub } from '../streams/stream-hub.js';
import { CommitHooks } from './commit-hooks.js';
import { GlobalFeed } from './global-feed.js';
import { GroupDocCache } from './group-cache.js';
import { LedgerPool } from './ledger-pool.js';

const GLOBAL_KINDS = /^(group|actor)\./;

/**
 * The daemon's shared services, built once by the composition root and handed to op modules.
 * Every ledger append goes through `append` so streams hear about it.
 */
export class Kernel implements AsyncDisposable {
  readonly layout: HomeLayout;
  readonly groups: GroupDocCache;
  readonly ledgers: LedgerPool;
  readonly streams = new StreamHub();
  /** Runtime activity revisions, published by the hook commit path. */
  readonly activity = new ActivityHub();
  readonly globalFeed = new GlobalFeed();
  /** Hook state, launch records and runtime activity: owned in memory, written through. */
  readonly hookChannel: HookChannel;
  /** Live PTY terminals by group and actor (filled by the runtime lifecycle). */
  readonly runtimes = new RuntimeRegistry();
  /** Post-commit listeners (delivery planning). */
  readonly commits = new CommitHooks();
  /** Serializes read-modify-append sequences of one group (keys are group ids). */
  readonly groupLocks = new KeyedMutex();
  /** Actor processes (start/stop/ownership records) and delivery into them. */
  readonly actorRuntime: ActorRuntimeService;
  /** Working state with provenance, derived once per tick (issue 7). */
  readonly workingState: WorkingStateService;
  /** Prompt-submit evidence for accepted PTY deliveries to hooked runtimes (issue 7). */
  readonly confirmations: DeliveryConfirmations;
  readonly delivery: DeliveryService;

  constructor(
    home: string,
    readonly logger: Logger,
    readonly streamTuning: StreamTuning,
    runtimeTuning: RuntimeTuning = {
      submitDelayMs: 1500,
      stopGraceMs: 3000,
      preambleGapMs: 1000,
      deliveryConfirmMs: 15_000,
      workingStateTickMs: 1000,
      earlyExitWindowMs: 1500,
    },
    cli?: CliLauncher,
  ) {
    this.layout = new HomeLayout(home);
    this.groups = new GroupDocCache(this.layout);
    this.ledgers = new LedgerPool(this.layout, this.groups);
    this.hookChannel = new HookChannel(this.layout);
    this.actorRuntime = new ActorRuntimeService(this, runtimeTuning, cli);
    this.workingState = new WorkingStateService(this, runtimeTuning.workingStateTickMs);
    this.confirmations = new DeliveryConfirmations({ windowMs: runtimeTuning.deliveryConfirmMs, record: (o) => void this.recordConfirmation(o) });
    this.delivery = new DeliveryService(this, this.actorRuntime, runtimeTuning);
  }

  ledger(groupId: string): Promise<FileLedgerStore> {
    return this.ledgers.get(groupId);
  }

  async append<K extends string>(groupId: string, input: AppendInput<K>): Promise<AppendResult<K>> {
    const result = await (await this.ledger(groupId)).append(input);
    if (!result.duplicate) this.published([result.event]);
    return result;
  }

  /** Tell subscribers about events appended outside `append` (e.g. by a ledger helper). */
  published(events: readonly CCCSEventV1[]): void {
    const groups = new Set<string>();
    for (const event of events) {
      groups.add(event.group_id);
      if (GLOBAL_KINDS.test(event.kind)) this.globalFeed.push(event);
    }
    for (const g of groups) this.streams.notify(g);
    this.commits.published(events);
  }

  /**
   * runtime_hook_event accepted an event: a UserPromptSubmit may confirm the delivery its
   * `prompt` carries (read for the match, never stored), and the
   * actor's working state is derived again now rather than at the next tick.
   */
  hookAccepted(groupId: string, actorId: string, runtime: string, event: string, prompt: string | null = null): void {
    if (event === 'UserPromptSubmit') {
      this.confirmations.promptSubmitted(groupId, actorId, this.runtimes.get(groupId, actorId)?.session, `${runtime}_hook_UserPromptSubmit`, prompt);
    }
    this.workingState.refreshGroup(groupId, actorId).catch((error) => {
      this.logger.log('warn', 'working state derivation failed', { group_id: groupId, ...errorFields(error) });
    });
  }

  private async recordConfirmation(o: ConfirmationOutcome): Promise<void> {
    try {
      await this.append(o.groupId, {
        kind: 'x.cccc.delivery_confirmation',
        by: 'system',
        data: {
          actor_id: o.actorId,
          source_event_id: o.item.sourceEventId,
          delivery_id: o.item.deliveryId,
          state: o.state,
          evidence: o.evidence,
          latency_ms: o.latencyMs,
        },
      });
    } catch (error) {
      this.logger.log('warn', 'could not record a delivery confirmation', { group_id: o.groupId, actor_id: o.actorId, ...errorFields(error) });
    }
  }

  /** A global change with no ledger to live in any more (a deleted group). */
  publishGlobal(event: CCCSEventV1): void {
    this.globalFeed.push(event);
    this.streams.notify('*');
  }

  async [Symbol.asyncDispose](): Promise<void> {
    this.streams.closeAll();
    this.activity.closeAll();
    this.workingState[Symbol.dispose]();
    this.confirmations[Symbol.dispose]();
    this.delivery[Symbol.dispose]();
    await this.actorRuntime[Symbol.asyncDispose]();
    await this.ledgers[Symbol.asyncDispose]();
  }
}
