import { useCallback, useEffect, useState } from 'react';
import { api } from '../api/client';
import { ApiError } from '../api/http';
import { diffSettings, formFromSettings, type SettingsForm } from './settings-form';

export interface GroupSettingsController {
  readonly form: SettingsForm | null;
  /** Only what differs from the saved settings, as flat spec names (or why the form is wrong). */
  readonly patch: ReturnType<typeof diffSettings> | null;
  readonly status: { ok: boolean; text: string } | null;
  readonly busy: boolean;
  set<K extends keyof SettingsForm>(key: K, value: SettingsForm[K]): void;
  save(savedText: string): void;
}

const message = (e: Error) => (e instanceof ApiError ? `${e.code}: ${e.message}` : e.message);

/**
 * The group settings form shared by the Messaging, Delivery and Transcript tabs: one draft, so an
 * edit survives switching tabs, and one save that sends every changed field in one patch (the
 * daemon validates each one and rejects the whole patch on any error).
 */
export function useGroupSettings(groupId: string): GroupSettingsController {
  const [saved, setSaved] = useState<SettingsForm | null>(null);
  const [form, setForm] = useState<SettingsForm | null>(null);
  const [status, setStatus] = useState<{ ok: boolean; text: string } | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let live = true;
    api.group_settings(groupId).then(
      (r) => {
        if (!live) return;
        const f = formFromSettings(r.settings);
        setSaved(f);
        setForm(f);
      },
      (e: Error) => live && setStatus({ ok: false, text: message(e) }),
    );
    return () => {
      live = false;
    };
  }, [groupId]);

  const patch = form && saved ? diffSettings(saved, form) : null;
  const set = useCallback(<K extends keyof SettingsForm>(key: K, value: SettingsForm[K]) => {
    setForm((f) => (f ? { ...f, [key]: value } : f));
    setStatus(null);
  }, []);
  const save = (savedText: string) => {
    if (!patch || !form) return;
    if (!patch.ok) {
      setStatus({ ok: false, text: patch.error });
      return;
    }
    setBusy(true);
    api.group_settings_update(groupId, patch.patch).then(
      () => {
        setBusy(false);
        setSaved(form);
        setStatus({ ok: true, text: savedText });
      },
      (err: Error) => {
        setBusy(false);
        setStatus({ ok: false, text: message(err) });
      },
    );
  };
  return { form, patch, status, busy, set, save };
}
