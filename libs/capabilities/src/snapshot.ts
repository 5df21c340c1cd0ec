import { checkOverlay, PolicyDoc, policyRevision } from './allowlist.js';
import { policyRecords, type CapabilityRecord } from './records.js';
import type { ImportedCatalog } from './store.js';
import type { CapabilityState } from './state.js';

/** Everything one operation reads, captured once: policy layers, the merged catalog and the state. */
export interface CapabilitySnapshot {
  readonly defaults: Record<string, unknown>;
  readonly overlay: Record<string, unknown>;
  readonly effective: Record<string, unknown>;
  readonly policy: PolicyDoc;
  readonly revision: string;
  /** Why the overlay on disk is not in effect ('' when it is). */
  readonly overlayError: string;
  /** Built-in and curated records first, then imported records (imports never shadow built-ins). */
  readonly catalog: ReadonlyMap<string, CapabilityRecord>;
  readonly imported: ImportedCatalog;
  readonly state: CapabilityState;
}

export function buildSnapshot(
  defaults: Record<string, unknown>,
  overlayRead: { overlay: Record<string, unknown>; error: string },
  imported: ImportedCatalog,
  state: CapabilityState,
): CapabilitySnapshot {
  let overlay = overlayRead.overlay;
  let overlayError = overlayRead.error;
  let check = checkOverlay(defaults, overlay);
  if (!check.valid) {
    overlayError = overlayError || `overlay ignored: ${check.reason}`;
    overlay = {};
    check = checkOverlay(defaults, {});
  }
  const policy = check.valid ? check.policy : PolicyDoc.parse(defaults);
  const catalog = new Map<string, CapabilityRecord>();
  for (const record of policyRecords(policy)) catalog.set(record.capability_id, record);
  for (const record of Object.values(imported)) if (!catalog.has(record.capability_id)) catalog.set(record.capability_id, record);
  return { defaults, overlay, effective: check.effective, policy, revision: policyRevision(check.effective), overlayError, catalog, imported, state };
}
