import type { RecipientStatus } from '../api/types';
import { useT } from '../i18n/I18nProvider';
import { statusLabels, type Mode } from './message';

/** Per recipient: delivery, Mail read and reply obligation, as the ledger facts say. */
export function RecipientStatusList({ statuses, mode }: { statuses: Record<string, RecipientStatus> | undefined; mode: Mode | null }) {
  const t = useT();
  const recipients = Object.entries(statuses ?? {});
  if (recipients.length === 0) return null;
  return (
    <ul className="msg-status" aria-label={t('status.list')}>
      {recipients.map(([actor, s]) => (
        <li key={actor} data-actor={actor} data-delivery={s.delivery_state ?? 'none'} data-confirmation={s.delivery_confirmation ?? 'none'}>
          <span className="status-actor">{actor}</span>
          {statusLabels(s, mode, t).map((l) => (
            <span key={l.text} className="status-chip" data-tone={l.tone}>
              {l.text}
            </span>
          ))}
        </li>
      ))}
    </ul>
  );
}
