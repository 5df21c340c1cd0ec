export { startFakeModel, type FakeModel } from './server.js';
export {
  type ModelStep,
  reply,
  thinkThenReply,
  callTool,
  callBash,
  callMcpTool,
  callNamespacedTool,
  loadDeferredTool,
  type ToolInput,
  flood,
  hang,
  SIDE_REQUEST_TEXT,
  SCRIPT_EXHAUSTED_TEXT,
} from './script.js';
export { countOccurrences, userInputsOf, occurrences, type RecordedRequest, type ModelApi } from './recorded.js';
