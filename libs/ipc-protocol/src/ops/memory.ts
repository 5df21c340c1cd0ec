import { z } from 'zod';
import { defineOp } from './define.js';
import { GroupIdArg, LooseBooleanArg } from './shared.js';

// §8.8 memory_reme_*: a group's local Markdown memory (MEMORY.md + daily files) with a full-text
// index. Limits and defaults are the spec's; the reference's bounds where the spec names none
// (get limit ≤ 5000, token counts ≤ 2,000,000, signal pack budget 64..4096).

const Rec = z.record(z.string(), z.unknown());
/** A calendar day as the layout names daily files. */
export const MemoryDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'expected YYYY-MM-DD');
export const MemoryMessage = z.looseObject({ role: z.string(), name: z.string().optional(), content: z.string() });
export type MemoryMessage = z.infer<typeof MemoryMessage>;
export const DedupIntent = z.enum(['new', 'update', 'supersede', 'silent']);
export type DedupIntent = z.infer<typeof DedupIntent>;
const TokenCount = (min: number) => z.number().int().min(min).max(2_000_000);

export const MemoryBackend = z.object({ name: z.literal('local'), vector_enabled: z.literal(false), fts_enabled: z.literal(true) });

export const memory_reme_layout_get = defineOp({
  summary: "The group's memory layout: MEMORY.md, the daily directory, today's daily file and the backend.",
  args: () => z.object({ group_id: GroupIdArg }),
  result: () => z.object({
    group_label: z.string(),
    memory_root: z.string(),
    memory_file: z.string(),
    daily_dir: z.string(),
    today_daily_file: z.string(),
    backend: MemoryBackend,
  }),
});

export const memory_reme_index_sync = defineOp({
  summary: 'Bring the full-text index up to date with the memory files: scan (changed files only) or rebuild (from scratch).',
  args: () => z.object({ group_id: GroupIdArg, mode: z.enum(['scan', 'rebuild']).optional() }),
  result: () => z.object({
    indexed_files: z.number().int().nonnegative(),
    indexed_chunks: z.number().int().nonnegative(),
    watched_paths: z.array(z.string()),
    last_sync_at: z.string(),
  }),
});

export const MemorySearchHit = z.object({
  path: z.string(),
  start_line: z.number().int().positive(),
  end_line: z.number().int().positive(),
  score: z.number(),
  snippet: z.string(),
  source: z.string(),
  raw_metric: z.number().nullish(),
  metadata: Rec,
});
export type MemorySearchHit = z.infer<typeof MemorySearchHit>;

export const memory_reme_search = defineOp({
  summary: 'Full-text search over the memory files, best first, with line ranges and snippets.',
  args: () => z.object({
    group_id: GroupIdArg,
    query: z.string().trim().min(1),
    max_results: z.number().int().min(1).max(50).optional(),
    min_score: z.number().min(0).max(1).optional(),
    sources: z.array(z.string()).optional(),
    vector_weight: z.number().min(0).max(1).optional(),
    candidate_multiplier: z.number().min(1).max(20).optional(),
  }),
  result: () => z.object({ hits: z.array(MemorySearchHit), count: z.number().int().nonnegative(), took_ms: z.number().nonnegative() }),
});

export const memory_reme_get = defineOp({
  summary: 'Read lines of one memory file (path absolute or relative to the memory root).',
  args: () => z.object({
    group_id: GroupIdArg,
    path: z.string().min(1),
    offset: z.number().int().min(1).optional(),
    limit: z.number().int().min(1).max(5000).optional(),
  }),
  result: () => z.object({
    path: z.string(),
    offset: z.number().int(),
    limit: z.number().int(),
    total_lines: z.number().int().nonnegative(),
    content: z.string(),
  }),
});

export const memory_reme_context_check = defineOp({
  summary: 'Count the tokens of a conversation and, past the threshold, say where to cut it for compaction.',
  args: () => z.object({
    group_id: GroupIdArg,
    messages: z.array(MemoryMessage),
    context_window_tokens: TokenCount(1024).optional(),
    reserve_tokens: TokenCount(0).optional(),
    keep_recent_tokens: TokenCount(256).optional(),
  }),
  result: () => z.object({
    needs_compaction: z.boolean(),
    token_count: z.number().int(),
    threshold: z.number().int(),
    messages_to_summarize: z.array(Rec),
    turn_prefix_messages: z.array(Rec),
    left_messages: z.array(Rec),
    is_split_turn: z.boolean(),
    cut_index: z.number().int(),
  }),
});

export const memory_reme_compact = defineOp({
  summary: 'Summarize messages deterministically, or return the prompt an agent can summarize them with.',
  args: () => z.object({
    group_id: GroupIdArg,
    messages_to_summarize: z.array(MemoryMessage),
    turn_prefix_messages: z.array(MemoryMessage).optional(),
    previous_summary: z.string().optional(),
    language: z.string().optional(),
    return_prompt: LooseBooleanArg.optional(),
  }),
  result: () => z.union([z.object({ summary: z.string() }), z.object({ prompt: z.record(z.string(), z.string()) })]),
});

const DedupFinalReason = z.enum(['accepted', 'empty_summary', 'precheck_silent', 'persistence_idempotency_key', 'persistence_content_hash']);
export const MemoryDedup = z.object({
  intent: DedupIntent,
  query: z.string(),
  candidate_count: z.number().int().nonnegative(),
  top_score: z.number(),
  precheck_decision: DedupIntent,
  final_decision: DedupIntent,
  final_reason: DedupFinalReason,
  decision: DedupIntent,
  hits: z.array(z.object({ path: z.string(), start_line: z.number().int(), score: z.number() })),
  error: z.string().optional(),
});
export type MemoryDedup = z.infer<typeof MemoryDedup>;

export const memory_reme_daily_flush = defineOp({
  summary: "Summarize messages (and an optional signal pack) into one entry of the day's daily file.",
  args: () => z.object({
    group_id: GroupIdArg,
    messages: z.array(MemoryMessage),
    date: MemoryDate.optional(),
    version: z.string().optional(),
    language: z.string().optional(),
    return_prompt: LooseBooleanArg.optional(),
    signal_pack: Rec.optional(),
    signal_pack_token_budget: z.number().int().min(64).max(4096).optional(),
    dedup_intent: DedupIntent.optional(),
    dedup_query: z.string().optional(),
    actor_id: z.string().optional(),
  }),
  result: () => z.union([
    z.object({
      status: z.enum(['written', 'silent']),
      reason: z.enum(['empty_summary', 'precheck_silent', 'persistence_idempotency_key', 'persistence_content_hash']).optional(),
      target_file: z.string(),
      content_hash: z.string(),
      bytes_written: z.number().int().nonnegative(),
      signal_pack: z.object({ schema: z.string(), token_budget: z.number().int(), token_estimate: z.number().int(), truncated: z.boolean() }).optional(),
      dedup: MemoryDedup.optional(),
    }),
    z.object({ prompt: z.record(z.string(), z.string()) }),
  ]),
});

export const memory_reme_write = defineOp({
  summary: 'Append an entry to MEMORY.md or a daily file (or replace the file), atomically, with dedup by key and content.',
  args: () => z.object({
    group_id: GroupIdArg,
    target: z.enum(['memory', 'daily']),
    content: z.string().refine((s) => s.trim() !== '', 'content is empty'),
    date: MemoryDate.optional(),
    mode: z.enum(['append', 'replace']).optional(),
    idempotency_key: z.string().optional(),
    actor_id: z.string().optional(),
    source_refs: z.array(z.string()).optional(),
    tags: z.array(z.string()).optional(),
    supersedes: z.array(z.string()).optional(),
    dedup_intent: DedupIntent.optional(),
    dedup_query: z.string().optional(),
  }),
  result: () => z.object({
    file_path: z.string(),
    line_count: z.number().int().nonnegative(),
    content_hash: z.string(),
    status: z.enum(['written', 'silent']),
    reason: z.enum(['precheck_silent', 'persistence_idempotency_key', 'persistence_content_hash']).optional(),
    dedup: MemoryDedup.optional(),
  }),
});
