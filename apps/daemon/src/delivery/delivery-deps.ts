import type { HomeLayout } from '@cccc/groups';
import type { KeyedMutex } from '../concurrency/keyed-mutex.js';
import type { DeliveryConfirmations } from '../hooks/delivery-confirmations.js';
import type { WorkingStateService } from '../hooks/working-state-service.js';
import type { CommitHooks } from '../kernel/commit-hooks.js';
import type { GroupDocCache } from '../kernel/group-cache.js';
import type { LedgerPool } from '../kernel/ledger-pool.js';
import type { Logger } from '../log.js';
import type { ActorRuntimeService } from '../runtime/actor-runtime-service.js';
import type { RuntimeRegistry } from '../runtime/runtime-registry.js';

/** What delivery reaches, handed over by the composition root. */
export interface DeliveryDeps {
  readonly layout: HomeLayout;
  readonly groups: GroupDocCache;
  readonly ledgers: Pick<LedgerPool, 'get' | 'append'>;
  readonly runtimes: RuntimeRegistry;
  readonly groupLocks: KeyedMutex;
  readonly commits: CommitHooks;
  readonly actorRuntime: ActorRuntimeService;
  readonly workingState: Pick<WorkingStateService, 'derive' | 'onChanged'>;
  readonly confirmations: Pick<DeliveryConfirmations, 'begin' | 'accepted' | 'abandon' | 'settled'>;
  readonly logger: Logger;
}
