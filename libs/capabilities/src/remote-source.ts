import type { CapabilityRecord } from './records.js';

// The port every on-demand remote search source implements (see remote.ts, remote-skills.ts).

export interface RemoteSearchResult {
  readonly source_id: string;
  readonly records: CapabilityRecord[];
  readonly error?: string;
}

export interface RemoteSource {
  readonly source_id: string;
  /** What the source yields; search skips it under another `kind` filter (both when absent). */
  readonly kind?: 'mcp_toolpack' | 'skill';
  /** The source's own cap on hits per search (its CCCC_CAPABILITY_SEARCH_REMOTE_*_LIMIT). */
  readonly limit?: number;
  search(query: string, limit: number, signal: AbortSignal): Promise<CapabilityRecord[]>;
}
