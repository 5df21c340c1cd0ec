import type { GroupSettings } from '../../../src/routes/route-map';

// Pure mapping between the settings route's sections and the form (numbers edited as text so
// an empty field is an error, not a silent 0).

export interface SettingsForm {
  default_send_to: 'foreman' | 'broadcast';
  mail_notice_after_seconds: string;
  reply_notice_after_seconds: string;
  min_interval_seconds: string;
  terminal_transcript_visibility: 'off' | 'foreman' | 'all';
}

/** Defaults of libs/groups group-settings (what an unset key means). */
const DEFAULTS = { mail: 1800, reply: 900, interval: 0 };

function section(settings: GroupSettings, name: keyof GroupSettings): Record<string, unknown> {
  const s = settings[name];
  return typeof s === 'object' && s !== null ? (s as Record<string, unknown>) : {};
}

export function formFromSettings(settings: GroupSettings): SettingsForm {
  const messaging = section(settings, 'messaging');
  const delivery = section(settings, 'delivery');
  const transcript = section(settings, 'terminal_transcript');
  const num = (v: unknown, d: number) => String(typeof v === 'number' ? v : d);
  return {
    default_send_to: messaging.default_send_to === 'broadcast' ? 'broadcast' : 'foreman',
    mail_notice_after_seconds: num(delivery.mail_notice_after_seconds, DEFAULTS.mail),
    reply_notice_after_seconds: num(delivery.reply_notice_after_seconds, DEFAULTS.reply),
    min_interval_seconds: num(delivery.min_interval_seconds, DEFAULTS.interval),
    terminal_transcript_visibility: transcript.visibility === 'off' || transcript.visibility === 'all' ? transcript.visibility : 'foreman',
  };
}

/** The flat-name patch of changed fields, or the first invalid number. */
export function diffSettings(saved: SettingsForm, form: SettingsForm): { ok: true; patch: Record<string, string | number> } | { ok: false; error: string } {
  const patch: Record<string, string | number> = {};
  for (const key of Object.keys(form) as Array<keyof SettingsForm>) {
    if (form[key] === saved[key]) continue;
    if (key.endsWith('_seconds')) {
      const raw = form[key].trim();
      if (!/^\d+$/.test(raw)) return { ok: false, error: `${key} must be a whole number of seconds` };
      patch[key] = Number(raw);
    } else patch[key] = form[key];
  }
  return { ok: true, patch };
}
