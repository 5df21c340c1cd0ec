// The provider interface: what a Group Space backend (the embedded local provider, NotebookLM)
// must offer. Every method that mutates takes a `token` (the durable job id) and must be
// idempotent by it, so a job replayed after a crash never creates a second source.

export type ProviderMode = 'disabled' | 'active' | 'degraded';

export type ProviderState = {
  provider: string;
  enabled: boolean;
  mode: ProviderMode;
  real_adapter_enabled: boolean;
  stub_adapter_enabled: boolean;
  auth_configured: boolean;
  write_ready: boolean;
  readiness_reason: string;
  last_health_at: string | null;
  last_error: string | null;
};

export type RemoteSpace = {
  remote_space_id: string;
  title?: string;
  created_at?: string;
  is_owner?: boolean;
};

export type SourceInput = {
  title: string;
  content: string;
  source_type: string;
  /** Where the text came from (a path under the space root, a daily file), for citations. */
  origin?: string;
};

export type SpaceSource = {
  source_id: string;
  title: string;
  source_type: string;
  origin: string;
  size_bytes: number;
  created_at: string;
  updated_at: string;
};

export type QueryReference = {
  citation: number;
  source_id: string;
  title: string;
  origin: string;
  snippet: string;
  score: number;
};

export type QueryAnswer = {
  answer: string;
  references: QueryReference[];
};

export type SpaceArtifact = {
  artifact_id: string;
  kind: string;
  title: string;
  status: 'completed' | 'failed';
  format: string;
  created_at: string;
  source_ids: string[];
};

export interface SpaceProvider {
  readonly name: string;
  state(): ProviderState;
  listSpaces(): Promise<RemoteSpace[]>;
  createSpace(title: string): Promise<RemoteSpace>;
  /** Throws space_provider_not_found for an unknown space. */
  assertSpace(spaceId: string): Promise<void>;
  /** Idempotent by token: a second call with the same token returns the first source. */
  addSource(spaceId: string, input: SourceInput, token: string): Promise<{ source: SpaceSource; created: boolean }>;
  /**
   * The sources a token created, or undefined when the provider cannot prove it either way
   * (an uncertain outcome); an empty array means provably nothing was committed.
   */
  sourcesByToken(spaceId: string, token: string): Promise<SpaceSource[] | undefined>;
  listSources(spaceId: string): Promise<SpaceSource[]>;
  /** How many sources a space holds, and how many of them are files (cheap: no content read). */
  countSources(spaceId: string): Promise<{ total: number; files: number }>;
  refreshSource(spaceId: string, sourceId: string): Promise<{ refreshed: boolean; source: SpaceSource }>;
  renameSource(spaceId: string, sourceId: string, title: string): Promise<SpaceSource>;
  deleteSource(spaceId: string, sourceId: string): Promise<{ deleted: boolean }>;
  query(spaceId: string, question: string, options: { source_ids?: string[]; limit?: number }): Promise<QueryAnswer>;
  listArtifacts(spaceId: string): Promise<SpaceArtifact[]>;
  /** Only the kinds in `artifactKinds` are supported; others are capability_unavailable. */
  readonly artifactKinds: readonly string[];
  generateArtifact(spaceId: string, kind: string, token: string): Promise<SpaceArtifact>;
  readArtifact(spaceId: string, artifactId: string): Promise<{ artifact: SpaceArtifact; content: string }>;
}
