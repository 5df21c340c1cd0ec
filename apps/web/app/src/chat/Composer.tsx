import { useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { api } from '../api/client';
import { ApiError } from '../api/http';
import type { ActorListEntry, LedgerEvent } from '../api/types';
import { applyCandidate, candidates, mentionAt, recipientsOf, type Candidate } from './mentions';
import { chatFields, type Mode } from './message';
import { RecipientChips } from './RecipientChips';
import { Button } from '../ui/Button';
import { useT } from '../i18n/I18nProvider';

const MODES: readonly Mode[] = ['send', 'request_reply', 'mail'];

interface Props {
  readonly groupId: string;
  readonly actors: readonly ActorListEntry[];
  readonly replyTo: LedgerEvent | null;
  readonly onCancelReply: () => void;
  readonly onSent: () => void;
}

/**
 * Text, recipient chips and @-recipient completion, the send / request_reply / mail choice
 * (back to send after each message), Enter to send and Shift+Enter for a newline. A reply goes
 * to `/reply` (send or mail only, per the spec); files go through the upload routes when the
 * server has them.
 */
export function Composer({ groupId, actors, replyTo, onCancelReply, onSent }: Props) {
  const t = useT();
  const [text, setText] = useState('');
  const [mode, setMode] = useState<Mode>('send');
  const [chosen, setChosen] = useState<string[]>([]);
  const [files, setFiles] = useState<File[]>([]);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [uploadsUnavailable, setUploadsUnavailable] = useState(false);
  const [mention, setMention] = useState<{ start: number; query: string } | null>(null);
  const [highlight, setHighlight] = useState(0);
  const input = useRef<HTMLTextAreaElement>(null);
  const fileInput = useRef<HTMLInputElement>(null);

  const actorIds = useMemo(() => actors.map((a) => a.id), [actors]);
  const mentioned = recipientsOf(text, actorIds);
  // Chips of actors that left the group drop out; the text's @-names add to the chips.
  const selected = chosen.filter((t) => t.startsWith('@') || actorIds.includes(t));
  const to = [...selected, ...mentioned.filter((t) => !selected.includes(t))];
  const options: Candidate[] = mention ? candidates(mention.query, actors).slice(0, 8) : [];
  const effectiveMode: Mode = replyTo && mode === 'request_reply' ? 'send' : mode;

  const refreshMention = (value: string, caret: number) => {
    setMention(mentionAt(value, caret));
    setHighlight(0);
  };

  const pick = (c: Candidate) => {
    const el = input.current;
    if (!el || !mention) return;
    const next = applyCandidate(text, mention.start, el.selectionStart, c.token);
    setText(next.text);
    setMention(null);
    requestAnimationFrame(() => {
      el.focus();
      el.setSelectionRange(next.caret, next.caret);
    });
  };

  const submit = async () => {
    if (busy) return;
    if (!text.trim() && files.length === 0) return;
    setBusy(true);
    setError(null);
    // `to` omitted on a reply: the daemon addresses the original sender.
    const message = { text, ...(to.length > 0 ? { to } : {}) };
    try {
      if (replyTo) {
        // A reply is send or mail (it cannot ask for another reply).
        const reply = { ...message, reply_to: replyTo.id, message_mode: mode === 'request_reply' ? ('send' as const) : mode };
        await (files.length > 0 ? api.reply_upload(groupId, reply, files) : api.reply(groupId, reply));
      } else {
        const send = { ...message, message_mode: mode };
        await (files.length > 0 ? api.send_upload(groupId, send, files) : api.send(groupId, send));
      }
      setText('');
      setChosen([]);
      setMode('send');
      setFiles([]);
      if (fileInput.current) fileInput.current.value = '';
      onSent();
    } catch (e) {
      if (e instanceof ApiError && e.status === 404 && e.code === 'unknown_route' && files.length > 0) {
        setUploadsUnavailable(true);
        setError('File uploads are not available on this server; remove the files to send the text.');
      } else setError(e instanceof ApiError ? `${e.code}: ${e.message}` : (e as Error).message);
    } finally {
      setBusy(false);
    }
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.nativeEvent.isComposing) return;
    if (options.length > 0) {
      if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
        e.preventDefault();
        setHighlight((h) => (h + (e.key === 'ArrowDown' ? 1 : options.length - 1)) % options.length);
        return;
      }
      if (e.key === 'Enter' || e.key === 'Tab') {
        e.preventDefault();
        pick(options[Math.min(highlight, options.length - 1)]!);
        return;
      }
      if (e.key === 'Escape') {
        setMention(null);
        return;
      }
    }
    if (e.key === 'Escape' && replyTo) onCancelReply();
    if (e.key === 'Enter' && !e.shiftKey) {
      e.preventDefault();
      void submit();
    }
  };

  return (
    <form
      className="composer"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      {replyTo && (
        <div className="composer-reply">
          <span>
            {t('composer.replyingTo')} <b>{replyTo.by}</b>: <q>{chatFields(replyTo).text.slice(0, 100)}</q>
          </span>
          <button type="button" aria-label={t('composer.cancelReply')} onClick={onCancelReply}>
            ×
          </button>
        </div>
      )}
      <RecipientChips
        actors={actors}
        selected={selected}
        mentioned={mentioned}
        fallback={replyTo ? t('composer.fallbackSender', { by: replyTo.by }) : t('composer.fallbackDefault')}
        onToggle={(token) => setChosen((c) => (c.includes(token) ? c.filter((t) => t !== token) : [...c, token]))}
      />
      {options.length > 0 && (
        <ul className="mention-list" role="listbox" aria-label={t('chat.recipients')}>
          {options.map((c, i) => (
            <li
              key={c.token}
              role="option"
              aria-selected={i === highlight}
              onMouseDown={(e) => {
                e.preventDefault();
                pick(c);
              }}
            >
              {c.label}
            </li>
          ))}
        </ul>
      )}
      <textarea
        ref={input}
        aria-label={t('composer.message')}
        placeholder={replyTo ? t('composer.placeholderReply') : t('composer.placeholder')}
        rows={2}
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          refreshMention(e.target.value, e.target.selectionStart);
        }}
        onKeyDown={onKeyDown}
        onClick={(e) => refreshMention(text, e.currentTarget.selectionStart)}
        onBlur={() => setMention(null)}
      />
      <div className="composer-bar">
        <select aria-label={t('composer.mode')} value={effectiveMode} onChange={(e) => setMode(MODES.find((m) => m === e.target.value) ?? 'send')}>
          <option value="send">{t('composer.mode.send')}</option>
          {!replyTo && <option value="request_reply">{t('composer.mode.request_reply')}</option>}
          <option value="mail">{t('composer.mode.mail')}</option>
        </select>
        {!uploadsUnavailable && (
          <label className="composer-attach">
            {t('composer.files')}
            <input ref={fileInput} type="file" multiple aria-label={t('composer.attach')} onChange={(e) => setFiles([...(e.target.files ?? [])])} />
          </label>
        )}
        {files.length > 0 && (
          <span className="muted">
            {t(files.length > 1 ? 'composer.fileCount' : 'composer.fileCount1', { count: files.length })}
            <button
              type="button"
              aria-label={t('composer.removeFiles')}
              onClick={() => {
                setFiles([]);
                if (fileInput.current) fileInput.current.value = '';
              }}
            >
              ×
            </button>
          </span>
        )}
        <Button type="submit" variant="primary" disabled={busy || (!text.trim() && files.length === 0)}>
          {replyTo ? t('composer.reply') : t('composer.send')}
        </Button>
      </div>
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}
