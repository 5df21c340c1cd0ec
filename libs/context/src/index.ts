export { ContextStore, type SyncRequest, type SyncResult } from './store.js';
export { ContextFiles } from './context-files.js';
export { applyOps, type ApplyInput, type ApplyOutcome, type ContextChange } from './apply-ops.js';
export { authorizeOp, type ActorRoles, type Authorization, type ContextPrincipal, type ContextRole } from './permissions.js';
export { OP_NAMES as CONTEXT_OP_NAMES, type ParsedOp } from './op-schemas.js';
export { contextView, overviewView, type ContextDetail } from './context-view.js';
export { syncView } from './sync-view.js';
export { taskList, MAX_BATCH_IDS, MAX_PAGE, UNASSIGNED, type TaskListArgs } from './task-list.js';
export { deleteInfo, subtreeOf, wouldCycle, type DeleteInfo } from './task-tree.js';
export { ContextErrorCodes, contextError, type ContextErrorCode, type OpRejection } from './errors.js';
export {
  emptyContext,
  TASK_STATUSES,
  type AgentState,
  type Brief,
  type ContextHead,
  type ContextMeta,
  type ContextState,
  type CoordinationNote,
  type Task,
  type TaskStatus,
} from './model.js';
export { formatTaskId, taskNumber } from './task-ids.js';
