// Bundle entry of `cccc hook claude-activity` (loaded on demand by hook-main.ts).
export { runClaudeActivityHook } from './commands/activity-recorder.js';
