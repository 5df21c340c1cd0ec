import { existsSync } from 'node:fs';
import type { HomeLayout } from '../home-layout.js';
import { utcNowIso } from '../clock.js';
import { applyPlainChange, newYamlDocument, readYamlDocument, writeYamlDocument } from '../yaml-file.js';
import { applyBrandingPatch, mergeBranding, type Branding } from './branding.js';
import { applyObservabilityPatch, mergeObservability, type Observability } from './observability.js';

// The IO shell of the global settings: CCCC_HOME/settings.yaml, one section per concern.
// Writes change only their own section, node by node, so other sections and comments stay.

type Section = 'observability' | 'web_branding' | 'remote_access';

function readSection(layout: HomeLayout, section: Section): unknown {
  if (!existsSync(layout.settingsPath)) return undefined;
  const doc = readYamlDocument(layout.settingsPath).toJS() as unknown;
  return typeof doc === 'object' && doc !== null ? (doc as Record<string, unknown>)[section] : undefined;
}

function writeSection(layout: HomeLayout, section: Section, value: unknown): void {
  const exists = existsSync(layout.settingsPath);
  const doc = exists ? readYamlDocument(layout.settingsPath) : newYamlDocument({});
  const before = (doc.toJS() as Record<string, unknown> | null) ?? {};
  applyPlainChange(doc, before, { ...before, [section]: value });
  writeYamlDocument(layout.settingsPath, doc);
}

export function readObservability(layout: HomeLayout): Observability {
  return mergeObservability(readSection(layout, 'observability'));
}

/** Validate, then write: a refused patch leaves the file as it was. */
export function updateObservability(layout: HomeLayout, patch: Record<string, unknown>): Observability {
  const next = applyObservabilityPatch(readObservability(layout), patch);
  writeSection(layout, 'observability', next);
  return next;
}

export function readBranding(layout: HomeLayout): Branding {
  return mergeBranding(readSection(layout, 'web_branding'));
}

export function updateBranding(layout: HomeLayout, patch: Record<string, unknown>, now = utcNowIso()): Branding {
  const next = applyBrandingPatch(layout.home, readBranding(layout), patch, now);
  writeSection(layout, 'web_branding', next);
  return next;
}

/** The raw `remote_access` section (§8.17); the remote-access core validates it. */
export function readRemoteAccessSection(layout: HomeLayout): unknown {
  return readSection(layout, 'remote_access');
}

export function writeRemoteAccessSection(layout: HomeLayout, value: Record<string, unknown>): void {
  writeSection(layout, 'remote_access', value);
}
