import type { Command } from 'commander';
import { readFileSync } from 'node:fs';
import { groupContext, guarded, withGroupOptions, type GroupOptions } from '../context.js';
import { printJson, printLines } from '../output.js';

type SetExit = (code: number) => void;
type Rec = Record<string, unknown>;

/** `cccc voice …`: the group's Voice Secretary (IPC §8.3 assistant_*). */
export function registerVoiceCommands(program: Command, setExit: SetExit): void {
  const voice = program.command('voice').description('the Voice Secretary: settings, transcripts, working documents, input');

  withGroupOptions(voice.command('status').description('settings, lifecycle, the hidden actor and the working documents')).action(
    guarded(setExit, async (opts: GroupOptions) => {
      const ctx = groupContext(opts);
      const r = await ctx.client.call('assistant_state', { group_id: ctx.groupId, assistant_id: 'voice_secretary' });
      if (ctx.json) return printJson(r);
      const a = (r.assistant ?? {}) as Rec;
      const actor = ((a.health as Rec | undefined)?.actor ?? {}) as Rec;
      printLines([
        `voice_secretary ${a.enabled ? 'enabled' : 'disabled'} (${String(a.lifecycle)})`,
        `actor voice-secretary: ${actor.configured ? (actor.running ? 'running' : 'stopped') : 'none'}`,
        `documents: ${(r.documents ?? []).length}${r.active_document_path ? `, active ${r.active_document_path}` : ''}`,
        `new input: ${r.new_input_available ? 'yes' : 'no'}`,
      ]);
    }),
  );

  for (const [name, enabled] of [['enable', true], ['disable', false]] as const) {
    withGroupOptions(voice.command(name).description(enabled ? 'enable it (creates the hidden voice-secretary actor from the foreman)' : 'disable it (stops and removes the actor and its private env)'))
      .option('--dir <document_default_dir>', 'where new working documents go (repository-relative)')
      .option('--backend <recognition_backend>', 'browser_asr | assistant_service_local_asr | external_provider_asr | mock')
      .action(
        guarded(setExit, async (opts: GroupOptions & { dir?: string; backend?: string }) => {
          const ctx = groupContext(opts);
          const config = { ...(opts.dir ? { document_default_dir: opts.dir } : {}), ...(opts.backend ? { recognition_backend: opts.backend } : {}) };
          const r = await ctx.client.call('assistant_settings_update', {
            group_id: ctx.groupId,
            by: ctx.by,
            assistant_id: 'voice_secretary',
            patch: { enabled, ...(Object.keys(config).length ? { config: config as never } : {}) },
          });
          if (ctx.json) return printJson(r);
          printLines([`voice_secretary ${enabled ? 'enabled' : 'disabled'}${r.actor_started ? ' (actor started)' : ''}`]);
        }),
      );
  }

  const transcript = voice.command('transcript').description('transcript segments (what browser or service ASR sends)');
  withGroupOptions(transcript.command('append').description('append a stable transcript segment').argument('[text...]', 'the segment text (omit with --flush)'))
    .requiredOption('--session <session_id>', 'the recording session')
    .option('--segment <segment_id>', 'the segment id (a retry with the same id appends nothing)')
    .option('--document <document_path>', 'the working document (repository-relative .md)')
    .option('--flush', 'hand the collected window to the secretary now')
    .option('--stop', 'the recording stopped (flush, and the idle review nudge)')
    .action(
      guarded(setExit, async (words: string[], opts: GroupOptions & { session: string; segment?: string; document?: string; flush?: boolean; stop?: boolean }) => {
        const ctx = groupContext(opts);
        const text = words.join(' ');
        const r = await ctx.client.call('assistant_voice_transcript_append', {
          group_id: ctx.groupId,
          by: ctx.by,
          session_id: opts.session,
          ...(text ? { text } : {}),
          ...(opts.segment ? { segment_id: opts.segment } : {}),
          ...(opts.document ? { document_path: opts.document } : {}),
          ...(opts.flush || opts.stop ? { flush: true } : {}),
          ...(opts.stop ? { trigger: { trigger_kind: 'push_to_talk_stop' } } : {}),
        });
        if (ctx.json) return printJson(r);
        const doc = r.document as Rec | undefined;
        printLines([
          `${r.segment ? `segment ${String((r.segment as Rec).segment_id)}` : 'flush'} → ${doc ? String(doc.document_path) : '(no document)'}`,
          r.input_event_created ? `input #${String((r.input_event as Rec).seq)} ${r.input_notify_emitted ? 'notified' : `not notified${r.input_notify_error ? `: ${r.input_notify_error}` : ''}`}` : 'no new input',
        ]);
      }),
    );

  const documents = voice.command('documents').description('the working documents (repository Markdown)');
  withGroupOptions(documents.command('list').description('list them (reconciled with the repository); * marks the active one'))
    .option('--archived', 'include archived documents')
    .action(
      guarded(setExit, async (opts: GroupOptions & { archived?: boolean }) => {
        const ctx = groupContext(opts);
        const r = await ctx.client.call('assistant_voice_document_list', { group_id: ctx.groupId, ...(opts.archived ? { include_archived: true } : {}) });
        if (ctx.json) return printJson(r);
        printLines([
          ...r.documents.map((d) => `${d.document_path === r.active_document_path ? '*' : ' '} ${String(d.document_path)}  ${String(d.status)}  rev ${String(d.revision_count)}  ${String(d.content_chars)} chars`),
          `${r.documents.length} document${r.documents.length === 1 ? '' : 's'}`,
        ]);
      }),
    );
  withGroupOptions(documents.command('select').description('make a document the active one (an existing file is adopted, never rewritten)').argument('<document_path>', 'repository-relative .md')).action(
    guarded(setExit, async (path: string, opts: GroupOptions) => {
      const ctx = groupContext(opts);
      const r = await ctx.client.call('assistant_voice_document_save', { group_id: ctx.groupId, by: ctx.by, document_path: path });
      if (ctx.json) return printJson(r);
      printLines([`active ${String(r.document.document_path)}`]);
    }),
  );
  withGroupOptions(documents.command('save').description('write a document and select it').argument('<document_path>', 'repository-relative .md'))
    .option('--content <text>', 'the Markdown content')
    .option('--file <path>', 'read the content from this file')
    .option('--title <title>', 'its title')
    .action(
      guarded(setExit, async (path: string, opts: GroupOptions & { content?: string; file?: string; title?: string }) => {
        const ctx = groupContext(opts);
        const content = opts.file ? readFileSync(opts.file, 'utf8') : opts.content;
        const r = await ctx.client.call('assistant_voice_document_save', {
          group_id: ctx.groupId,
          by: ctx.by,
          document_path: path,
          ...(content !== undefined ? { content } : {}),
          ...(opts.title ? { title: opts.title } : {}),
        });
        if (ctx.json) return printJson(r);
        printLines([`saved ${String(r.document.document_path)} rev ${String(r.document.revision_count)}`]);
      }),
    );

  withGroupOptions(voice.command('input').description('ask the Voice Secretary something (an Ask), or --refine a composer prompt').argument('<text...>', 'the instruction, or the text to refine'))
    .option('--refine', 'a prompt refinement request (the text is the composer text)')
    .option('--request <request_id>', 'the request id (a follow-up reuses it)')
    .option('--append-id <input_append_id>', 'a retry with the same id appends nothing')
    .action(
      guarded(setExit, async (words: string[], opts: GroupOptions & { refine?: boolean; request?: string; appendId?: string }) => {
        const ctx = groupContext(opts);
        const text = words.join(' ');
        const r = await ctx.client.call('assistant_voice_input_append', {
          group_id: ctx.groupId,
          by: ctx.by,
          kind: opts.refine ? 'prompt_refine' : 'voice_instruction',
          ...(opts.refine ? { composer_text: text } : { instruction: text }),
          ...(opts.request ? { request_id: opts.request } : {}),
          ...(opts.appendId ? { input_append_id: opts.appendId } : {}),
        });
        if (ctx.json) return printJson(r);
        printLines([`${r.request_id} ${r.input_event_created ? 'appended' : 'already appended'}${r.input_notify_emitted ? ', notified' : ''}`]);
      }),
    );

  const models = voice.command('models').description('local ASR models (manifest: built-in + CCCC_HOME/config/voice-models.json)');
  withGroupOptions(models.command('list').description('each model and its install status, and whether service ASR is ready')).action(
    guarded(setExit, async (opts: GroupOptions) => {
      const ctx = groupContext(opts);
      const r = await ctx.client.call('assistant_state', { group_id: ctx.groupId, assistant_id: 'voice_secretary' });
      if (ctx.json) return printJson({ service_runtime: r.service_runtime, service_models: r.service_models });
      const service = (((r.assistant ?? {}) as Rec).health as Rec | undefined)?.service as Rec | undefined;
      const missing = (Array.isArray(service?.missing) ? service.missing : []) as Rec[];
      printLines([
        ...(r.service_models ?? []).map((m) => `${String(m.model_id)}  ${String(m.status)}${m.error ? `  ${String((m.error as Rec).code)}` : ''}`),
        `${(r.service_models ?? []).length} model${(r.service_models ?? []).length === 1 ? '' : 's'}; service ASR ${service?.ready ? 'ready' : `not ready${missing.length ? `: ${missing.map((m) => String(m.code)).join(', ')}` : ''}`}`,
      ]);
    }),
  );
  withGroupOptions(models.command('install').description('download, verify (size + sha256) and switch in a model').argument('<model_id>', 'a model of the manifest')).action(
    guarded(setExit, async (modelId: string, opts: GroupOptions) => {
      const ctx = groupContext(opts);
      const r = await ctx.client.call('assistant_voice_model_install', { group_id: ctx.groupId, by: ctx.by, model_id: modelId });
      if (ctx.json) return printJson(r);
      printLines([`${r.model.model_id} ${r.model.status}${r.model.install_dir ? ` in ${r.model.install_dir}` : ''}`]);
    }),
  );
}
