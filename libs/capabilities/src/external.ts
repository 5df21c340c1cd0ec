import type { CapabilityRecord } from './records.js';
import type { Installation } from './state.js';

/**
 * How external MCP servers are installed, listed and called. The core decides when; an
 * implementation of this port does the IO (npm, child processes, MCP clients).
 */
export interface ExternalRuntime {
  /** Install (or reach) the server and list its tools. Never throws: failures come back as install_failed. */
  install(record: CapabilityRecord, artifactDir: string): Promise<Installation>;
  /** Remove the cached artifact and stop any running server. */
  uninstall(installation: Installation): Promise<void>;
  /** Call one tool; throws an IpcError (capability_tool_call_failed) when the server cannot answer. */
  callTool(record: CapabilityRecord, installation: Installation, toolName: string, args: Record<string, unknown>): Promise<Record<string, unknown>>;
  close(): Promise<void>;
}
