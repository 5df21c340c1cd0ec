import type { ConsumePhase } from './mail/consume.js';
import type { AppendedListener, Clock, RoleOf } from './types.js';

/** How a group's ledger is opened (`openGroupLedger`) and how its store behaves. */
export interface OpenLedgerOptions {
  home: string;
  groupId: string;
  clock?: Clock;
  /** Current role of an actor (libs/groups owns roles); unknown actors count as peers. */
  roleOf?: RoleOf;
  /**
   * Run the daemon-start step that settles every leftover `claimed` to `ambiguous`. Off by
   * default: a second opener (a CLI reading the ledger) must not settle a live daemon's claims.
   */
  settleStrandedDeliveries?: boolean;
  lockTimeoutMs?: number;
  clientIdWindowMs?: number;
  /** Rows fetched per step when history filters by text (default 256). */
  historyQueryPage?: number;
  /**
   * Rotate the active file automatically once it reaches `maxActiveBytes` (reference rule:
   * group.yaml `ledger.max_active_bytes`, default 5,000,000), at most once per
   * `compactMinIntervalMs` (300 s). Runs after the appends that crossed the threshold were
   * acknowledged, never on their path. Off by default: the daemon, the single writer, opts in.
   */
  autoCompact?: boolean;
  /** The rotation threshold, asked at each decision so an edited group.yaml applies at once. */
  maxActiveBytes?: () => number | undefined;
  /** Minimum time between non-forced rotations (manual or automatic); default 300 s. */
  compactMinIntervalMs?: number;
  /**
   * Acknowledged events that, once waiting, go to the background index writer at once (default
   * 2048; a timer hands over fewer). Tests set 1 to drive the writer thread batch by batch.
   */
  backgroundIndexAt?: number;
  /**
   * Called with each event once it is durable, after every write path (append, appendMany,
   * delivery claims and settles, the Mail read a consuming Inbox read appends), never for a
   * duplicate answered instead of written. Runs before the writer hears back, so whoever fans
   * events out to subscribers hears them from here and no writer publishes by hand.
   */
  onAppended?: AppendedListener;
  /** Test seam: called after each durable step of a consuming Inbox read. */
  onConsumePhase?: (phase: ConsumePhase) => void;
}
