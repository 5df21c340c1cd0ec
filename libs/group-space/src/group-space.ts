import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { backoffMs } from './backoff.js';
import { BindingStore, unbound, type Bindings, type LaneBinding } from './bindings.js';
import { capabilityMatrix } from './capability-matrix.js';
import { errorShape, spaceError, TRANSIENT_CODES } from './errors.js';
import { nowIso } from './ids.js';
import { derivedKey, payloadSources, validatePayload } from './ingest-payload.js';
import { JOB_STATES, SpaceJobQueue, type JobState, type QueueSummary, type SpaceJob } from './job-queue.js';
import { assertLaneAllowed, type Lane } from './lanes.js';
import { LOCAL_PROVIDER, LocalSpaceProvider } from './local/local-provider.js';
import { finalizedDailyFiles, readManifest, writeManifest } from './memory-sync.js';
import type { NotebookLmControlPlane } from './notebooklm/control-plane.js';
import type { ProviderMode, ProviderState, SpaceProvider, SpaceSource } from './provider.js';
import { walkSpaceFolder } from './space-files.js';

export interface GroupSpaceOptions {
  readonly groupId: string;
  /** `groups/<gid>/state/space`: bindings, jobs, the local provider's store, the memory manifest. */
  readonly stateDir: string;
  /** `groups/<gid>/state/memory/daily`: the memory lane's source of finalized daily files. */
  readonly dailyDir: string;
  /** The repo's `space/` folder of the group's active scope, or undefined without a scope. */
  readonly spaceRoot: () => string | undefined;
  readonly notebooklm: NotebookLmControlPlane;
  /** The local provider (default: SQLite in `stateDir/local/provider.sqlite3`). */
  readonly localProvider?: SpaceProvider & { close?(): void };
  readonly backoff?: { baseMs: number; maxMs: number };
  readonly today?: () => string;
}

const PROVIDERS = new Set(['notebooklm', LOCAL_PROVIDER]);
type Json = Record<string, unknown>;

function assertProvider(provider: string | undefined): void {
  if (provider !== undefined && !PROVIDERS.has(provider)) throw spaceError('invalid_request', `unknown provider ${provider} (notebooklm, local)`, { field: 'provider' });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const jobView = (job: SpaceJob): Json => ({ ...job });

/**
 * One group's Group Space (§8.18): two lanes, their bindings, a durable job queue and the
 * provider behind each bound lane. Failures answer a spec code and change nothing; the
 * local provider's mutations are idempotent by job, so recovery replays unsettled jobs.
 */
export class GroupSpace {
  readonly jobs: SpaceJobQueue;
  private readonly bindingStore: BindingStore;
  private readonly local: SpaceProvider & { close?(): void };
  private readonly manifestFile: string;
  private readonly syncFile: string;
  private lastWorkSync: { last_run_at?: string; converged?: boolean; unsynced_count?: number; last_error?: string } = {};

  constructor(private readonly o: GroupSpaceOptions) {
    mkdirSync(o.stateDir, { recursive: true });
    this.jobs = new SpaceJobQueue(join(o.stateDir, 'jobs.sqlite3'));
    this.bindingStore = new BindingStore(join(o.stateDir, 'bindings.json'), o.groupId);
    this.local = o.localProvider ?? new LocalSpaceProvider(join(o.stateDir, 'local', 'provider.sqlite3'));
    this.manifestFile = join(o.stateDir, 'memory_manifest.json');
    this.syncFile = join(o.stateDir, 'work_sync.json');
  }

  close(): void {
    this.jobs.close();
    this.local.close?.();
  }

  private today(): string {
    return this.o.today?.() ?? new Date().toISOString().slice(0, 10);
  }

  bindings(): Bindings {
    return this.bindingStore.read();
  }

  /** The provider of a bound lane, or undefined (unbound lanes have none). */
  private providerOf(b: LaneBinding): SpaceProvider | undefined {
    return b.status === 'bound' && b.provider === LOCAL_PROVIDER ? this.local : undefined;
  }

  /** The provider state a lane reports: the local provider once bound to it, NotebookLM's otherwise. */
  providerState(lane?: Lane): ProviderState {
    const b = this.bindings();
    const bound = lane ? b[lane] : b.work.status === 'bound' ? b.work : b.memory;
    return this.providerOf(bound)?.state() ?? this.o.notebooklm.state();
  }

  private mode(lane: Lane): ProviderMode {
    return this.providerState(lane).mode;
  }

  private requireBound(lane: Lane): { binding: LaneBinding; provider: SpaceProvider } {
    const binding = this.bindings()[lane];
    const provider = this.providerOf(binding);
    if (!provider) {
      throw spaceError('space_provider_not_configured', `lane ${lane} is not bound to a usable provider (bind it with provider "local", or configure NotebookLM)`, { lane, provider: binding.provider, binding_status: binding.status });
    }
    return { binding, provider };
  }

  queueSummary(): Record<Lane, QueueSummary> {
    return { work: this.jobs.summary('work'), memory: this.jobs.summary('memory') };
  }

  workSync(): Json {
    const root = this.o.spaceRoot();
    const b = this.bindings().work;
    if (!root) return { available: false, reason: 'no_scope_attached' };
    let unsynced: number | undefined;
    if (existsSync(root)) unsynced = walkSpaceFolder(root).length;
    return {
      available: b.status === 'bound',
      ...(b.status === 'bound' ? {} : { reason: 'work_lane_unbound' }),
      space_root: root,
      remote_space_id: b.remote_space_id,
      ...this.lastWorkSync,
      ...(this.lastWorkSync.unsynced_count === undefined && unsynced !== undefined ? { unsynced_count: unsynced } : {}),
    };
  }

  memorySync(): Json {
    const m = readManifest(this.manifestFile);
    const { files, empty } = finalizedDailyFiles(this.o.dailyDir, this.today());
    const synced = files.filter((f) => m.files[f.name]?.sha256 === f.sha256);
    const s = this.jobs.summary('memory');
    return {
      lane: 'memory',
      manifest_path: this.manifestFile,
      last_scan_at: m.last_scan_at,
      last_success_at: m.last_success_at,
      pending_files: files.length - synced.length,
      running_files: s.running,
      failed_files: s.failed,
      blocked_files: this.bindings().memory.status === 'bound' ? 0 : files.length - synced.length,
      eligible_daily_files: files.length,
      synced_daily_files: synced.length,
      empty_daily_skipped: empty,
      last_eligible_daily_date: files.at(-1)?.date ?? null,
      last_synced_daily_date: synced.at(-1)?.date ?? null,
    };
  }

  status(provider?: string) {
    assertProvider(provider);
    return {
      group_id: this.o.groupId,
      provider: this.providerState(),
      bindings: this.bindings(),
      queue_summary: this.queueSummary(),
      sync: this.workSync(),
      memory_sync: this.memorySync(),
    };
  }

  async spaces(provider?: string) {
    assertProvider(provider);
    const useLocal = provider === LOCAL_PROVIDER || (provider === undefined && Object.values(this.bindings()).some((b) => b.provider === LOCAL_PROVIDER && b.status === 'bound'));
    return {
      group_id: this.o.groupId,
      provider: 'notebooklm' as const,
      provider_state: { ...(useLocal ? this.local.state() : this.o.notebooklm.state()) },
      bindings: this.bindings() as unknown as Record<Lane, Json>,
      spaces: useLocal ? await this.local.listSpaces() : [],
    };
  }

  capabilities(provider?: string) {
    assertProvider(provider);
    const root = this.o.spaceRoot();
    const b = this.bindings().work;
    return capabilityMatrix({ group_id: this.o.groupId, provider: b.provider, space_root: root ?? '', local_scope_attached: root !== undefined, bound: b.status === 'bound' });
  }

  async bind(args: { lane: Lane; provider?: string; action?: 'bind' | 'unbind'; remote_space_id?: string; by?: string }) {
    assertProvider(args.provider);
    const action = args.action ?? 'bind';
    const by = args.by || 'user';
    let sync_result: Json | undefined;
    if (action === 'unbind') {
      this.bindingStore.write(args.lane, unbound(this.o.groupId, args.lane));
    } else {
      const provider = args.provider ?? 'notebooklm';
      if (provider !== LOCAL_PROVIDER) {
        const state = this.o.notebooklm.state();
        if (!state.auth_configured) throw spaceError('space_provider_not_configured', 'NotebookLM has no credential; bind provider "local" or set one with group_space_provider_credential_update', { provider });
        throw spaceError('capability_unavailable', 'NotebookLM cannot be bound: this build has no NotebookLM wire client (control plane only)', { provider });
      }
      let remote = (args.remote_space_id ?? '').trim();
      if (remote === '') remote = (await this.local.createSpace(`${this.o.groupId} ${args.lane}`)).remote_space_id;
      else await this.local.assertSpace(remote);
      this.bindingStore.write(args.lane, { group_id: this.o.groupId, provider: LOCAL_PROVIDER, lane: args.lane, remote_space_id: remote, bound_by: by, bound_at: nowIso(), status: 'bound' });
      if (args.lane === 'memory') sync_result = await this.syncMemoryLane(by);
    }
    return {
      group_id: this.o.groupId,
      lane: args.lane,
      provider: { ...this.providerState(args.lane) },
      bindings: this.bindings() as unknown as Record<Lane, Json>,
      queue_summary: this.queueSummary(),
      sync: this.workSync(),
      memory_sync: this.memorySync(),
      ...(sync_result ? { sync_result } : {}),
    };
  }

  /** A content fingerprint for requests without an idempotency key (a changed file is a new job). */
  private fingerprint(type: string, payload: Json): Json {
    const root = this.o.spaceRoot();
    if (type === 'text' || !root) return payload;
    const files = type === 'file' ? [] : walkSpaceFolder(root);
    const h = createHash('sha256');
    for (const f of files) {
      const st = statSync(f.abs);
      h.update(`${f.rel}\0${st.size}\0${st.mtimeMs}\n`);
    }
    if (type === 'file') {
      const st = statSync(join(root, String(payload.path)));
      h.update(`${st.size}\0${st.mtimeMs}`);
    }
    return { ...payload, _fingerprint: h.digest('hex') };
  }

  async ingest(args: { lane: Lane; provider?: string; kind?: string; payload?: Json; idempotency_key?: string; by?: string }) {
    assertProvider(args.provider);
    assertLaneAllowed('group_space_ingest', args.lane);
    const kind = args.kind ?? 'resource_ingest';
    if (kind !== 'resource_ingest') throw spaceError('capability_unavailable', `ingest kind ${kind} is not available here (resource_ingest)`, { kind });
    const { binding } = this.requireBound('work');
    const payload = args.payload ?? {};
    const type = validatePayload(payload, this.o.spaceRoot());
    const key = args.idempotency_key?.trim() || derivedKey('work', kind, this.fingerprint(type, payload));
    const { job, deduped } = this.jobs.enqueue({
      group_id: this.o.groupId,
      provider: binding.provider,
      lane: 'work',
      kind,
      remote_space_id: binding.remote_space_id,
      idempotency_key: key,
      payload: { ...payload, source_type: type },
      by: args.by || 'user',
    }, { start: true });
    const settled = deduped ? job : await this.attempt(job);
    return this.ingestResult(settled, deduped);
  }

  private ingestResult(job: SpaceJob, deduped: boolean) {
    const terminal = job.state === 'succeeded' || job.state === 'failed' || job.state === 'canceled';
    const ids = (job.result?.source_ids as string[] | undefined) ?? [];
    return {
      group_id: this.o.groupId,
      lane: 'work' as const,
      job_id: job.job_id,
      accepted: !terminal,
      completed: terminal,
      deduped,
      job: jobView(job),
      ...(job.result ? { ingest_result: job.result } : {}),
      ...(ids.length > 0 ? { source_id: ids[0], source_ids: ids } : {}),
      queue_summary: this.jobs.summary('work'),
      provider_mode: this.mode('work'),
    };
  }

  /**
   * Run one job to a settled state: persisted as running before the provider is called, then
   * succeeded or failed; transient errors retry with backoff up to `max_attempts`; an
   * unresolved outcome stays running.
   */
  async run(job: SpaceJob): Promise<SpaceJob> {
    return this.attempt(this.jobs.start(job.job_id));
  }

  /** The attempts of a job already marked running (its first attempt counted). */
  private async attempt(running: SpaceJob): Promise<SpaceJob> {
    let current = running;
    for (;;) {
      try {
        const result = await this.execute(current);
        return this.jobs.succeed(current.job_id, result);
      } catch (err) {
        const e = errorShape(err);
        if (e.code === 'space_provider_outcome_unresolved') return this.jobs.markUncertain(current.job_id, e);
        if (TRANSIENT_CODES.has(e.code) && current.attempt_count < current.max_attempts) {
          await sleep(backoffMs(current.attempt_count, this.o.backoff?.baseMs ?? 250, this.o.backoff?.maxMs ?? 4000));
          current = this.jobs.retryAttempt(current.job_id, e);
          continue;
        }
        return this.jobs.fail(current.job_id, e);
      }
    }
  }

  private async execute(job: SpaceJob): Promise<Json> {
    const provider = job.provider === LOCAL_PROVIDER ? this.local : undefined;
    if (!provider) throw spaceError('space_provider_not_configured', `job provider ${job.provider} is not usable here`);
    if (job.kind === 'memory_daily_sync') {
      const p = job.payload as { name: string; content: string; date: string };
      const { source } = await provider.addSource(job.remote_space_id, { title: p.name, content: p.content, source_type: 'memory_daily', origin: p.name }, job.job_id);
      return { source_ids: [source.source_id], file: p.name };
    }
    const type = String(job.payload.source_type);
    const items = payloadSources(type, job.payload, this.o.spaceRoot());
    const created: SpaceSource[] = [];
    for (const item of items) created.push((await provider.addSource(job.remote_space_id, item.input, `${job.job_id}${item.suffix}`)).source);
    if (type === 'space_folder') {
      this.lastWorkSync = { last_run_at: nowIso(), converged: true, unsynced_count: 0 };
    }
    return { source_ids: created.map((s) => s.source_id), source_count: created.length, source_type: type };
  }

  /**
   * After a crash: pending jobs are run; running jobs of the local provider are replayed (its
   * mutations are idempotent by job, so a replay completes the job without a second source);
   * running jobs of another provider keep their uncertain state for the user to reconcile.
   */
  async recover(): Promise<{ replayed: number; uncertain: number }> {
    let replayed = 0;
    let uncertain = 0;
    for (const job of this.jobs.unsettled()) {
      if (job.provider !== LOCAL_PROVIDER) {
        if (job.state === 'running') uncertain++;
        continue;
      }
      await this.run(job);
      replayed++;
    }
    return { replayed, uncertain };
  }

  /** Sync the finalized daily memory files into the memory lane (one idempotent job per file version). */
  async syncMemoryLane(by = 'system'): Promise<Json> {
    const binding = this.bindings().memory;
    const provider = this.providerOf(binding);
    const manifest = readManifest(this.manifestFile);
    manifest.last_scan_at = nowIso();
    if (!provider) {
      writeManifest(this.manifestFile, manifest);
      return { ran: false, reason: 'memory_lane_unbound' };
    }
    const { files } = finalizedDailyFiles(this.o.dailyDir, this.today());
    let synced = 0;
    let failed = 0;
    for (const f of files) {
      if (manifest.files[f.name]?.sha256 === f.sha256) continue;
      const { job, deduped } = this.jobs.enqueue({
        group_id: this.o.groupId,
        provider: binding.provider,
        lane: 'memory',
        kind: 'memory_daily_sync',
        remote_space_id: binding.remote_space_id,
        idempotency_key: `memory_daily:${binding.remote_space_id}:${f.name}:${f.sha256}`,
        payload: { name: f.name, date: f.date, content: f.content },
        by,
      });
      const done = deduped && job.state !== 'pending' ? job : await this.run(job);
      if (done.state !== 'succeeded') {
        failed++;
        continue;
      }
      const previous = manifest.files[f.name]?.source_id;
      const sourceId = (done.result?.source_ids as string[])[0]!;
      if (previous && previous !== sourceId) await provider.deleteSource(binding.remote_space_id, previous).catch(() => undefined);
      manifest.files[f.name] = { sha256: f.sha256, source_id: sourceId, synced_at: nowIso() };
      synced++;
    }
    if (failed === 0) manifest.last_success_at = nowIso();
    writeManifest(this.manifestFile, manifest);
    return { ran: true, synced_files: synced, failed_files: failed, eligible_daily_files: files.length };
  }

  async query(args: { lane: Lane; provider?: string; query: string; options?: { source_ids?: string[] } & Json }) {
    assertProvider(args.provider);
    const opts = args.options ?? {};
    const bad = Object.keys(opts).filter((k) => k !== 'source_ids');
    if (bad.length > 0) throw spaceError('invalid_request', `options supports only source_ids (not ${bad.join(', ')})`, { field: `options.${bad[0]}` });
    const binding = this.bindings()[args.lane];
    const provider = this.providerOf(binding);
    const requested = opts.source_ids;
    const base = { group_id: this.o.groupId, provider: 'notebooklm' as const, lane: args.lane, binding_status: binding.status, ...(requested ? { requested_source_ids: requested } : {}) };
    if (!provider) {
      // Provider failures never block core flows: an unbound lane answers degraded and empty.
      return {
        ...base,
        provider_mode: this.mode(args.lane),
        degraded: true,
        answer: '',
        references: [],
        reference_count: 0,
        source_basis_hint: 'unknown' as const,
        error: { code: 'space_provider_not_configured', message: `lane ${args.lane} is not bound` },
      };
    }
    if (args.lane === 'memory') await this.syncMemoryLane();
    const { answer, references } = await provider.query(binding.remote_space_id, args.query, { source_ids: requested });
    const referenced = [...new Set(references.map((r) => r.source_id))];
    const counts = await provider.countSources(binding.remote_space_id);
    const memory = args.lane === 'memory' ? this.memorySync() : undefined;
    return {
      ...base,
      provider_mode: 'active' as const,
      degraded: false,
      answer,
      references,
      reference_count: references.length,
      source_basis_hint: requested
        ? referenced.every((id) => requested.includes(id)) ? ('requested_sources_only' as const) : ('requested_sources_mixed' as const)
        : referenced.length > 0 ? ('referenced_sources_present' as const) : args.lane === 'memory' ? ('memory_manifest_only' as const) : ('unknown' as const),
      referenced_source_ids: referenced,
      ...(requested ? { references_match_requested: referenced.every((id) => requested.includes(id)) } : {}),
      remote_sources: counts.total,
      materialized_sources: counts.files,
      ...(memory
        ? { memory_last_success_at: (memory.last_success_at as string | null) ?? undefined, memory_pending_files: memory.pending_files as number, memory_failed_files: memory.failed_files as number }
        : {}),
      error: null,
    };
  }

  async sources(args: { lane: Lane; provider?: string; action?: 'list' | 'refresh' | 'rename' | 'delete'; source_id?: string; new_title?: string; by?: string }) {
    assertProvider(args.provider);
    const action = args.action ?? 'list';
    if (action !== 'list' && !args.source_id) throw spaceError('invalid_request', `source_id is required for ${action}`, { field: 'source_id' });
    if (action === 'rename' && !args.new_title?.trim()) throw spaceError('invalid_request', 'new_title is required for rename', { field: 'new_title' });
    const { binding, provider } = this.requireBound(args.lane);
    const base = { group_id: this.o.groupId, provider: 'notebooklm' as const, lane: args.lane, provider_mode: this.mode(args.lane), binding: { ...binding } as Json };
    const space = binding.remote_space_id;
    switch (action) {
      case 'list': {
        const sources = await provider.listSources(space);
        return { ...base, action, sources: sources as unknown as Json[], list_result: { count: sources.length } };
      }
      case 'refresh': {
        const r = await provider.refreshSource(space, args.source_id!);
        return { ...base, action, source_id: args.source_id!, refresh_result: { refreshed: r.refreshed, source: r.source } };
      }
      case 'rename': {
        const s = await provider.renameSource(space, args.source_id!, args.new_title!.trim());
        return { ...base, action, source_id: args.source_id!, rename_result: { renamed: true, source: s } };
      }
      case 'delete': {
        const r = await provider.deleteSource(space, args.source_id!);
        return { ...base, action, source_id: args.source_id!, delete_result: r };
      }
    }
  }

  async artifact(args: { lane: Lane; provider?: string; action?: 'list' | 'generate' | 'download'; kind?: string; wait?: boolean; save_to_space?: boolean; output_format?: string; artifact_id?: string; by?: string }) {
    assertProvider(args.provider);
    assertLaneAllowed('group_space_artifact', args.lane);
    const action = args.action ?? 'list';
    const { binding, provider } = this.requireBound('work');
    if (args.save_to_space === true) throw spaceError('capability_unavailable', 'save_to_space is not available here: download returns the content instead', { field: 'save_to_space' });
    if (args.output_format !== undefined && args.output_format !== 'markdown') throw spaceError('capability_unavailable', `output_format ${args.output_format} is not available (markdown)`, { field: 'output_format' });
    const base = { group_id: this.o.groupId, provider: 'notebooklm' as const, lane: 'work' as const, action, provider_mode: this.mode('work'), binding: { ...binding } as Json };
    const space = binding.remote_space_id;
    if (action === 'list') return { ...base, artifacts: (await provider.listArtifacts(space)) as unknown as Json[] };
    if (action === 'generate') {
      const kind = args.kind ?? 'report';
      if (!provider.artifactKinds.includes(kind)) throw spaceError('capability_unavailable', `artifact kind ${kind} is not available (${provider.artifactKinds.join(', ')})`, { kind });
      const artifact = await provider.generateArtifact(space, kind, `gen_${Date.now()}_${Math.random().toString(16).slice(2)}`);
      return { ...base, artifact: artifact as unknown as Json, saved_to_space: false };
    }
    if (!args.artifact_id) throw spaceError('invalid_request', 'artifact_id is required for download', { field: 'artifact_id' });
    const { artifact, content } = await provider.readArtifact(space, args.artifact_id);
    return { ...base, artifact: artifact as unknown as Json, content, saved_to_space: false };
  }

  async jobsOp(args: { lane: Lane; provider?: string; action?: 'list' | 'retry' | 'cancel'; job_id?: string; state?: JobState; limit?: number; by?: string }) {
    assertProvider(args.provider);
    const action = args.action ?? 'list';
    if (args.state !== undefined && !(JOB_STATES as readonly string[]).includes(args.state)) throw spaceError('invalid_request', 'unknown job state', { field: 'state' });
    const base = { group_id: this.o.groupId, lane: args.lane, action, provider_mode: this.mode(args.lane) };
    if (action === 'list') {
      return { ...base, jobs: this.jobs.list(args.lane, { state: args.state, limit: args.limit }).map(jobView), queue_summary: this.jobs.summary(args.lane) };
    }
    if (!args.job_id) throw spaceError('invalid_request', `job_id is required for ${action}`, { field: 'job_id' });
    const job = this.jobs.require(args.job_id, args.lane);
    if (action === 'cancel') {
      if (job.state === 'succeeded' || job.state === 'canceled') throw spaceError('invalid_request', `a ${job.state} job cannot be canceled`, { field: 'job_id', state: job.state });
      return { ...base, job: jobView(this.jobs.cancel(job.job_id)), queue_summary: this.jobs.summary(args.lane) };
    }
    if (job.state !== 'failed' && job.state !== 'canceled' && job.state !== 'pending') {
      throw spaceError('invalid_request', `only failed, canceled or pending jobs can be retried (this one is ${job.state})`, { field: 'job_id', state: job.state });
    }
    const binding = this.bindings()[args.lane];
    if (binding.status !== 'bound' || binding.remote_space_id !== job.remote_space_id || binding.provider !== job.provider) {
      throw spaceError('binding_changed', 'the lane is no longer bound to the space this job was made for', { job_id: job.job_id, job_remote_space_id: job.remote_space_id, current_remote_space_id: binding.remote_space_id });
    }
    const done = await this.run(this.jobs.requeue(job.job_id));
    return { ...base, job: jobView(done), queue_summary: this.jobs.summary(args.lane) };
  }

  sync(args: { lane: Lane; provider?: string; action?: string }) {
    assertProvider(args.provider);
    const action = args.action ?? 'status';
    if (action !== 'status') throw spaceError('capability_unavailable', `group_space_sync action=${action} is retired: use group_space_ingest and group_space_sources`, { action });
    return { group_id: this.o.groupId, lane: args.lane, action: 'status' as const, sync: args.lane === 'work' ? this.workSync() : this.memorySync() };
  }
}
