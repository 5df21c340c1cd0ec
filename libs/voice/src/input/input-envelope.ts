import type { InputRecord } from './input-log.js';

type Doc = Record<string, unknown> & { document_path: string };

/** What the secretary works from: unread items grouped per document, with the text to act on. */
export interface InputView {
  item_count: number;
  document_count: number;
  input_text: string;
  input_batches: Array<{ document_path: string; filename?: string; title?: string; item_count: number; kinds: string[]; intent_hints: string[]; languages: string[]; sources: string[] }>;
  documents: Doc[];
  has_new_input: boolean;
}

const uniq = (xs: Array<string | undefined>) => [...new Set(xs.filter((x): x is string => !!x))];

/** Pure: the input envelope / input_read answer for `items` (documents: the registry entries by path). */
export function inputView(items: readonly InputRecord[], documents: ReadonlyMap<string, Doc>): InputView {
  const byDoc = new Map<string, InputRecord[]>();
  for (const it of items) {
    const key = it.document_path ?? '';
    byDoc.set(key, [...(byDoc.get(key) ?? []), it]);
  }
  const batches: InputView['input_batches'] = [];
  const texts: string[] = [];
  const docs: Doc[] = [];
  for (const [path, list] of byDoc) {
    const doc = path ? documents.get(path) : undefined;
    if (doc) docs.push({ ...doc, content: undefined } as Doc);
    batches.push({
      document_path: path,
      ...(doc ? { filename: String(doc.filename ?? ''), title: String(doc.title ?? '') } : {}),
      item_count: list.length,
      kinds: uniq(list.map((i) => i.kind)),
      intent_hints: uniq(list.map((i) => (i.kind === 'voice_instruction' ? 'user_instruction' : i.kind === 'asr_transcript' ? 'transcript' : i.kind === 'idle_review' ? 'idle_review' : i.kind === 'prompt_refine' ? 'prompt_refine' : undefined))),
      languages: uniq(list.map((i) => i.language)),
      sources: uniq(list.map((i) => (typeof i.trigger?.capture_mode === 'string' ? i.trigger.capture_mode : i.by))),
    });
    texts.push([`## ${path || '(no document)'}`, ...list.map((i) => `- [${i.kind}${i.request_id ? ` ${i.request_id}` : ''}] ${i.text}${i.source_text ? `\n  source: ${i.source_text}` : ''}`)].join('\n'));
  }
  return {
    item_count: items.length,
    document_count: [...byDoc.keys()].filter(Boolean).length,
    input_text: texts.join('\n\n'),
    input_batches: batches,
    documents: docs,
    has_new_input: items.length > 0,
  };
}
