import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { writeFileAtomicSync } from '@cccc/durable-fs';
import { parse, stringify } from 'yaml';
import { z } from 'zod';
import { isPlainObject } from './canonical.js';
import { CapabilityRecord } from './records.js';
import { CapabilityState, emptyState } from './state.js';

// The thin IO shell: where the capability files live under CCCC_HOME and how they are read and
// written (atomically). Nothing else in this library touches the disk except the external runtime.

export class CapabilityPaths {
  constructor(readonly home: string) {}
  get root(): string {
    return join(this.home, 'state', 'capabilities');
  }
  get statePath(): string {
    return join(this.root, 'state.json');
  }
  get catalogPath(): string {
    return join(this.root, 'catalog.json');
  }
  get cacheDir(): string {
    return join(this.root, 'cache');
  }
  get overlayPath(): string {
    return join(this.home, 'config', 'capability-allowlist.user.yaml');
  }
}

const CatalogFile = z.object({ v: z.literal(1), records: z.record(z.string(), CapabilityRecord).default({}) });
export type ImportedCatalog = Record<string, CapabilityRecord>;

export interface OverlayRead {
  readonly overlay: Record<string, unknown>;
  /** Why the file on disk was not used (then the overlay is empty). */
  readonly error: string;
}

export class CapabilityFiles {
  constructor(readonly paths: CapabilityPaths) {}

  readOverlay(): OverlayRead {
    let text: string;
    try {
      text = readFileSync(this.paths.overlayPath, 'utf8');
    } catch {
      return { overlay: {}, error: '' };
    }
    try {
      const doc: unknown = parse(text);
      if (doc === null || doc === undefined) return { overlay: {}, error: '' };
      if (!isPlainObject(doc)) return { overlay: {}, error: 'overlay is not a mapping' };
      return { overlay: doc, error: '' };
    } catch (error) {
      return { overlay: {}, error: `overlay is not valid YAML: ${(error as Error).message.split('\n')[0]}` };
    }
  }

  writeOverlay(overlay: Record<string, unknown>): void {
    mkdirSync(dirname(this.paths.overlayPath), { recursive: true });
    writeFileAtomicSync(this.paths.overlayPath, stringify(overlay), 0o600);
  }

  /** Whether a file was there to remove. */
  removeOverlay(): boolean {
    if (!existsSync(this.paths.overlayPath)) return false;
    rmSync(this.paths.overlayPath, { force: true });
    return true;
  }

  /** A missing or unreadable state file reads as empty (a corrupt one is kept aside by the next write). */
  readState(): CapabilityState {
    const raw = readJson(this.paths.statePath);
    const parsed = CapabilityState.safeParse(raw);
    return parsed.success ? parsed.data : emptyState();
  }

  writeState(state: CapabilityState): void {
    mkdirSync(this.paths.root, { recursive: true });
    writeFileAtomicSync(this.paths.statePath, `${JSON.stringify(state, null, 2)}\n`, 0o600);
  }

  readCatalog(): ImportedCatalog {
    const parsed = CatalogFile.safeParse(readJson(this.paths.catalogPath));
    return parsed.success ? parsed.data.records : {};
  }

  /** Imported records may carry server env values in install_spec: the file is private (0600). */
  writeCatalog(records: ImportedCatalog): void {
    mkdirSync(this.paths.root, { recursive: true });
    writeFileAtomicSync(this.paths.catalogPath, `${JSON.stringify({ v: 1, records }, null, 2)}\n`, 0o600);
  }
}

function readJson(path: string): unknown {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return undefined;
  }
}
