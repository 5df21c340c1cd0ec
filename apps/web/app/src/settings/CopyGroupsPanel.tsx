import { useEffect, useState } from 'react';
import { api, type RouteResult } from '../api/client';
import { ApiError } from '../api/http';

type Preview = RouteResult<'group_copy_preview_import'>['preview'];

const describe = (e: Error) => (e instanceof ApiError ? `${e.code}: ${e.message}` : e.message);

/** Read a picked file as base64 (without the data-URL prefix). */
function fileBase64(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ''));
    reader.onerror = () => reject(reader.error ?? new Error('could not read the file'));
    reader.readAsDataURL(file);
  });
}

/**
 * Copy Groups (§8.20): export this group as a zip package (group state only, secrets scrubbed)
 * and import a package as a new, stopped group after a preview of its conflicts and warnings.
 * Through the Web packages travel as base64 in JSON, so this is for small packages; larger ones
 * use `cccc group export|import`.
 */
export function CopyGroupsPanel({ groupId }: { groupId: string }) {
  const [download, setDownload] = useState<{ url: string; filename: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [pkg, setPkg] = useState<string | null>(null);
  const [preview, setPreview] = useState<Preview | null>(null);
  const [title, setTitle] = useState('');
  const [workspaceRoot, setWorkspaceRoot] = useState('');
  const [imported, setImported] = useState<string | null>(null);

  useEffect(() => () => void (download && URL.revokeObjectURL(download.url)), [download]);

  const exportGroup = () => {
    setBusy(true);
    setError(null);
    api.group_copy_export(groupId).then(
      (r) => {
        setBusy(false);
        const bytes = Uint8Array.from(atob(r.package_b64), (c) => c.charCodeAt(0));
        setDownload({ url: URL.createObjectURL(new Blob([bytes], { type: 'application/zip' })), filename: r.filename });
      },
      (e: Error) => {
        setBusy(false);
        setError(describe(e));
      },
    );
  };

  const pick = (file: File | undefined) => {
    setPreview(null);
    setImported(null);
    setError(null);
    if (!file) return;
    setBusy(true);
    fileBase64(file)
      .then(async (b64) => {
        setPkg(b64);
        const r = await api.group_copy_preview_import({ package_b64: b64 });
        setPreview(r.preview);
        setTitle(r.preview.source_title);
      })
      .catch((e: Error) => setError(describe(e)))
      .finally(() => setBusy(false));
  };

  const importGroup = () => {
    if (!pkg) return;
    setBusy(true);
    setError(null);
    api
      .group_copy_import({ package_b64: pkg, ...(title.trim() ? { title: title.trim() } : {}), ...(workspaceRoot.trim() ? { workspace_root: workspaceRoot.trim() } : {}) })
      .then(
        (r) => {
          setImported(`Imported ${r.source_group_id} as ${r.group_id}${r.group_id_conflict ? ' (new id: the source id is taken here)' : ''}, stopped.`);
          setPreview(null);
          setPkg(null);
        },
        (e: Error) => setError(describe(e)),
      )
      .finally(() => setBusy(false));
  };

  return (
    <fieldset className="copy-groups" aria-label="Copy Groups">
      <legend>Copy Groups</legend>
      <p className="muted">A package holds this group&apos;s state (ledger, actors, settings) — never workspace files, private env, profile secrets or tokens.</p>
      <div className="row">
        <button type="button" disabled={busy} onClick={exportGroup}>
          Export this group
        </button>
        {download && (
          <a href={download.url} download={download.filename} className="copy-download">
            Download {download.filename}
          </a>
        )}
      </div>
      <label className="field">
        <span>Import a package</span>
        <input type="file" accept=".zip,application/zip" aria-label="Copy package" disabled={busy} onChange={(e) => pick(e.target.files?.[0])} />
      </label>
      {preview && (
        <div className="copy-preview" aria-label="Import preview">
          <p>
            <strong>{preview.source_title}</strong> <code>{preview.source_group_id}</code> — {preview.actor_count} actor(s)
            {preview.actors.length > 0 && `: ${preview.actors.map((a) => String(a.id)).join(', ')}`}
          </p>
          <p>Group id conflict: {preview.group_id_conflict ? 'yes — a new id will be allocated' : 'no'}</p>
          <p>
            Workspace root: <code>{preview.source_workspace_root || '—'}</code> {preview.source_workspace_root && (preview.workspace_root_exists ? '(exists here)' : '(missing here)')}
          </p>
          {(preview.warnings ?? []).length > 0 && (
            <ul className="copy-warnings" aria-label="Import warnings">
              {(preview.warnings ?? []).map((w) => (
                <li key={w}>{w}</li>
              ))}
            </ul>
          )}
          <label className="field">
            <span>Title</span>
            <input aria-label="Imported title" value={title} onChange={(e) => setTitle(e.target.value)} />
          </label>
          <label className="field">
            <span>Workspace root (optional)</span>
            <input aria-label="Workspace root" value={workspaceRoot} onChange={(e) => setWorkspaceRoot(e.target.value)} placeholder={preview.source_workspace_root} />
          </label>
          <button type="button" disabled={busy} onClick={importGroup}>
            Import as a new group
          </button>
        </div>
      )}
      {imported && (
        <p className="form-ok" role="status">
          {imported}
        </p>
      )}
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
    </fieldset>
  );
}
