import { useEffect, useState } from 'react';
import { api, type RouteResult } from '../api/client';
import { ApiError } from '../api/http';
import { useT } from '../i18n/I18nProvider';

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
  const t = useT();
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
          setImported(t(r.group_id_conflict ? 'copy.importedNewId' : 'copy.imported', { source: r.source_group_id, id: r.group_id }));
          setPreview(null);
          setPkg(null);
        },
        (e: Error) => setError(describe(e)),
      )
      .finally(() => setBusy(false));
  };

  return (
    <fieldset className="copy-groups" aria-label={t('settings.tab.copyGroups')}>
      <legend>{t('settings.tab.copyGroups')}</legend>
      <p className="muted">{t('copy.hint')}</p>
      <div className="row">
        <button type="button" disabled={busy} onClick={exportGroup}>
          {t('copy.export')}
        </button>
        {download && (
          <a href={download.url} download={download.filename} className="copy-download">
            {t('copy.download', { file: download.filename })}
          </a>
        )}
      </div>
      <label className="field">
        <span>{t('copy.import')}</span>
        <input type="file" accept=".zip,application/zip" aria-label={t('copy.package')} disabled={busy} onChange={(e) => pick(e.target.files?.[0])} />
      </label>
      {preview && (
        <section className="copy-preview" aria-label={t('copy.preview')}>
          <p>
            <strong>{preview.source_title}</strong> <code>{preview.source_group_id}</code> — {t('copy.actorCount', { count: preview.actor_count })}
            {preview.actors.length > 0 && `: ${preview.actors.map((a) => String(a.id)).join(', ')}`}
          </p>
          <p>{t('copy.conflict')} {preview.group_id_conflict ? t('copy.conflictYes') : t('copy.conflictNo')}</p>
          <p>
            {t('copy.root')} <code>{preview.source_workspace_root || '—'}</code> {preview.source_workspace_root && (preview.workspace_root_exists ? t('copy.rootExists') : t('copy.rootMissing'))}
          </p>
          {(preview.warnings ?? []).length > 0 && (
            <ul className="copy-warnings" aria-label={t('copy.warnings')}>
              {(preview.warnings ?? []).map((w) => (
                <li key={w}>{w}</li>
              ))}
            </ul>
          )}
          <label className="field">
            <span>{t('actorForm.title')}</span>
            <input aria-label={t('copy.importedTitle')} value={title} onChange={(e) => setTitle(e.target.value)} />
          </label>
          <label className="field">
            <span>{t('copy.rootOptional')}</span>
            <input aria-label={t('copy.rootLabel')} value={workspaceRoot} onChange={(e) => setWorkspaceRoot(e.target.value)} placeholder={preview.source_workspace_root} />
          </label>
          <button type="button" disabled={busy} onClick={importGroup}>
            {t('copy.importNew')}
          </button>
        </section>
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
