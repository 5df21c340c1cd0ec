import { compact, contextCheck } from '@cccc/memory';
import type { OpRouter } from '@cccc/ipc-protocol';
import type { MemoryService } from '../memory/memory-service.js';

export interface MemoryOpsDeps {
  readonly memory: MemoryService;
}

const rest = <T extends { group_id: string }>({ group_id: _, ...args }: T): Omit<T, 'group_id'> => args;

/** §8.8 memory_reme_*: thin handlers over the group's memory (@cccc/memory). */
export function registerMemoryOps(router: OpRouter, { memory }: MemoryOpsDeps): void {
  router.register('memory_reme_layout_get', (args) => memory.of(args.group_id).layoutGet());
  router.register('memory_reme_index_sync', (args) => memory.of(args.group_id).indexSync(args.mode));
  router.register('memory_reme_search', (args) => memory.of(args.group_id).search(rest(args)));
  router.register('memory_reme_get', (args) => memory.of(args.group_id).get(rest(args)));
  router.register('memory_reme_write', (args) => memory.of(args.group_id).write(rest(args)));
  router.register('memory_reme_daily_flush', (args) => memory.of(args.group_id).dailyFlush(rest(args)));
  router.register('memory_reme_context_check', (args) => {
    memory.check(args.group_id);
    return contextCheck({
      messages: args.messages,
      contextWindowTokens: args.context_window_tokens,
      reserveTokens: args.reserve_tokens,
      keepRecentTokens: args.keep_recent_tokens,
    });
  });
  router.register('memory_reme_compact', (args) => {
    memory.check(args.group_id);
    return compact({
      messagesToSummarize: args.messages_to_summarize,
      turnPrefixMessages: args.turn_prefix_messages,
      previousSummary: args.previous_summary,
      language: args.language,
      returnPrompt: args.return_prompt,
    });
  });
}
