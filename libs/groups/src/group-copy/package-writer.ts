import { createHash } from 'node:crypto';
import { constants, createWriteStream, lstatSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { finished } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { stringify } from 'yaml';
import { ZipFile } from 'yazl';
import { utcNowIso } from '../clock.js';
import { loadGroup } from '../group-store.js';
import type { HomeLayout } from '../home-layout.js';
import { GroupCopyErrorCodes } from './errors.js';
import { IpcError } from '@cccc/ipc-protocol';
import { digestOf, SMALL_PACKAGE_LIMITS } from './package-reader.js';
import {
  GROUP_COPY_KIND,
  GROUP_COPY_VERSION,
  GROUP_PREFIX,
  GROUP_YAML_ENTRY,
  MANIFEST_ENTRY,
  isExcludedGroupPath,
  packageFilename,
  scrubGroupDocument,
  type GroupCopyManifest,
} from './manifest.js';

// Export: one group's durable state (groups/<gid>/ minus the exclusions) as a zip written by
// yazl, streaming file contents; group.yaml is scrubbed and reset to stopped. Nothing outside
// the group directory (workspace, private env, profile secrets, access tokens) is ever read.

export interface ExportOptions {
  readonly ccccVersion?: string;
  readonly now?: string;
}

interface PlannedFile {
  readonly rel: string;
  readonly handle: FileHandle;
  readonly size: number;
  readonly sha256: string;
  readonly mtime: Date;
}

// Each file is opened once, hashed and later zipped through that one handle: a state file the
// daemon replaces meanwhile (write to a temp file, rename over) would otherwise be hashed as one
// version and packed as the next, and the import would refuse the package's content_digest.
async function hashPrefix(handle: FileHandle, size: number): Promise<string> {
  const hash = createHash('sha256');
  if (size > 0) await pipeline(handle.createReadStream({ start: 0, end: size - 1, autoClose: false }), hash);
  return hash.digest('hex');
}

/** Regular files of the group directory that may travel; symlinks and exclusions are skipped. */
function listGroupFiles(root: string, rel = ''): { rel: string; abs: string; size: number; mtime: Date }[] {
  const out: { rel: string; abs: string; size: number; mtime: Date }[] = [];
  for (const name of readdirSync(join(root, rel)).sort()) {
    const childRel = rel ? `${rel}/${name}` : name;
    const abs = join(root, childRel);
    const st = lstatSync(abs);
    if (st.isDirectory()) {
      if (!isExcludedGroupPath(`${childRel}/`)) out.push(...listGroupFiles(root, childRel));
    } else if (st.isFile() && childRel !== 'group.yaml' && !isExcludedGroupPath(childRel)) {
      out.push({ rel: childRel, abs, size: st.size, mtime: st.mtime });
    }
  }
  return out;
}

export interface BuiltPackage {
  readonly zip: ZipFile;
  readonly manifest: GroupCopyManifest;
  readonly filename: string;
}

/** Plan and start a package; the caller drains `zip.outputStream`. */
export async function buildGroupPackage(layout: HomeLayout, groupId: string, options: ExportOptions = {}): Promise<BuiltPackage> {
  const group = loadGroup(layout, groupId);
  const exportedAt = options.now ?? utcNowIso();
  const groupYaml = Buffer.from(stringify(scrubGroupDocument(group as Record<string, unknown>)));
  const files: PlannedFile[] = [];
  const closeAll = () => {
    for (const f of files) void f.handle.close().catch(() => undefined);
  };
  try {
    for (const f of listGroupFiles(layout.groupDir(groupId))) {
      let handle: FileHandle;
      try {
        // No symlink swapped in since the listing is followed.
        handle = await open(f.abs, constants.O_RDONLY | constants.O_NOFOLLOW);
      } catch {
        continue; // removed since the listing: it is not part of this snapshot
      }
      try {
        const st = await handle.stat(); // the opened version's size, not the listed one's
        if (!st.isFile()) {
          await handle.close();
          continue;
        }
        files.push({ rel: f.rel, handle, size: st.size, mtime: st.mtime, sha256: await hashPrefix(handle, st.size) });
      } catch (err) {
        await handle.close().catch(() => undefined);
        throw err;
      }
    }
  } catch (err) {
    closeAll();
    throw err;
  }
  const hashes = new Map<string, string>([[GROUP_YAML_ENTRY, createHash('sha256').update(groupYaml).digest('hex')]]);
  for (const f of files) hashes.set(GROUP_PREFIX + f.rel, f.sha256);
  const manifest: GroupCopyManifest = {
    kind: GROUP_COPY_KIND,
    version: GROUP_COPY_VERSION,
    source_group_id: groupId,
    source_title: group.title,
    exported_at: exportedAt,
    ...(options.ccccVersion ? { cccc_version: options.ccccVersion } : {}),
    source_platform: process.platform,
    export_mode: 'group_state_only',
    workspace_included: false,
    contains_secrets: false,
    content_digest: digestOf(hashes),
    content: {
      file_count: files.length + 1,
      total_bytes: groupYaml.length + files.reduce((n, f) => n + f.size, 0),
      actor_count: group.actors.length,
      ledger_included: files.some((f) => f.rel === 'ledger.jsonl'),
    },
  };
  const zip = new ZipFile();
  const mtime = new Date(exportedAt);
  zip.addBuffer(Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`), MANIFEST_ENTRY, { mtime, mode: 0o100644 });
  zip.addBuffer(groupYaml, GROUP_YAML_ENTRY, { mtime, mode: 0o100644 });
  for (const f of files) {
    if (f.size === 0) zip.addBuffer(Buffer.alloc(0), GROUP_PREFIX + f.rel, { mtime: f.mtime, mode: 0o100644 });
    else zip.addReadStream(f.handle.createReadStream({ start: 0, end: f.size - 1, autoClose: false }), GROUP_PREFIX + f.rel, { mtime: f.mtime, mode: 0o100644, size: f.size });
  }
  zip.end();
  // Drained, failed or destroyed (too large): the handles go either way.
  finished(zip.outputStream, closeAll);
  return { zip, manifest, filename: packageFilename(groupId, group.title, exportedAt) };
}

/** `group_copy_export`: the package in memory, base64; bigger than the small limit → group_copy_too_large. */
export async function exportGroupCopy(layout: HomeLayout, groupId: string, options: ExportOptions = {}): Promise<{ package_b64: string; filename: string; manifest: GroupCopyManifest }> {
  const { zip, manifest, filename } = await buildGroupPackage(layout, groupId, options);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of zip.outputStream) {
    size += (chunk as Buffer).length;
    if (size > SMALL_PACKAGE_LIMITS.maxPackageBytes) {
      (zip.outputStream as unknown as { destroy(): void }).destroy();
      throw new IpcError(GroupCopyErrorCodes.tooLarge, `the package exceeds ${SMALL_PACKAGE_LIMITS.maxPackageBytes} bytes; use group_copy_export_file`, {
        limit: SMALL_PACKAGE_LIMITS.maxPackageBytes,
      });
    }
    chunks.push(chunk as Buffer);
  }
  return { package_b64: Buffer.concat(chunks).toString('base64'), filename, manifest };
}

/** Where export_file writes: a daemon-local directory inside CCCC_HOME, owner-only. */
export function exportsDir(layout: HomeLayout): string {
  return join(layout.stateDir, 'group_copy', 'exports');
}

/** `group_copy_export_file`: the package written to a daemon-local file (atomic rename, 0600). */
export async function exportGroupCopyFile(
  layout: HomeLayout,
  groupId: string,
  options: ExportOptions = {},
): Promise<{ package_path: string; package_size_bytes: number; filename: string; manifest: GroupCopyManifest }> {
  const { zip, manifest, filename } = await buildGroupPackage(layout, groupId, options);
  const dir = exportsDir(layout);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  pruneOldExports(dir);
  const path = join(dir, filename);
  const tmp = `${path}.${process.pid}.tmp`;
  try {
    await pipeline(zip.outputStream, createWriteStream(tmp, { mode: 0o600 }));
    renameSync(tmp, path);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
  return { package_path: path, package_size_bytes: lstatSync(path).size, filename, manifest };
}

/** Export files are temporary: those older than a day are removed when the next one is written. */
export const EXPORT_TTL_MS = 24 * 60 * 60 * 1000;

function pruneOldExports(dir: string, now = Date.now()): void {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    try {
      const st = statSync(path);
      if (st.isFile() && now - st.mtimeMs > EXPORT_TTL_MS) rmSync(path, { force: true });
    } catch {
      // raced with another export's prune
    }
  }
}
