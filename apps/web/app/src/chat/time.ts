// Message times for people: relative while recent, the date on hover, and a label per day for
// the separators between days. Pure: `now` and the page's language are passed in. English keeps
// its short house phrases ("5 min ago"); other languages use Intl's own relative phrases.

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

function parse(ts: string): Date | null {
  const d = new Date(ts);
  return Number.isNaN(d.getTime()) ? null : d;
}

const capitalise = (s: string) => s.charAt(0).toLocaleUpperCase() + s.slice(1);

/** "just now", "5 min ago", "3 h ago", then the clock time ("14:05"), then "3 Aug 14:05". */
export function relativeTime(ts: string, now: number, locale = 'en'): string {
  const d = parse(ts);
  if (!d) return ts;
  const age = now - d.getTime();
  const english = locale === 'en';
  const rtf = english ? null : new Intl.RelativeTimeFormat(locale, { numeric: 'auto', style: 'short' });
  if (age < MINUTE) return rtf ? rtf.format(0, 'second') : 'just now';
  if (age < HOUR) return rtf ? rtf.format(-Math.floor(age / MINUTE), 'minute') : `${Math.floor(age / MINUTE)} min ago`;
  if (age < 6 * HOUR) return rtf ? rtf.format(-Math.floor(age / HOUR), 'hour') : `${Math.floor(age / HOUR)} h ago`;
  const time = d.toLocaleTimeString(english ? [] : locale, { hour: '2-digit', minute: '2-digit' });
  if (dayKey(ts) === dayKey(new Date(now).toISOString())) return time;
  return `${d.toLocaleDateString(english ? [] : locale, { day: 'numeric', month: 'short' })} ${time}`;
}

/** The full local date and time, for the tooltip. */
export function fullDate(ts: string, locale = 'en'): string {
  const d = parse(ts);
  return d ? d.toLocaleString(locale === 'en' ? [] : locale, { dateStyle: 'full', timeStyle: 'medium' }) : ts;
}

/** The local calendar day of a timestamp (YYYY-MM-DD), what day separators group by. */
export function dayKey(ts: string): string {
  const d = parse(ts);
  if (!d) return '';
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

/** "Today", "Yesterday", else the weekday and date ("Monday, 3 August 2026"). */
export function dayLabel(ts: string, now: number, locale = 'en'): string {
  const d = parse(ts);
  if (!d) return ts;
  const key = dayKey(ts);
  const today = new Date(now);
  const english = locale === 'en';
  const rtf = english ? null : new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
  if (key === dayKey(today.toISOString())) return rtf ? capitalise(rtf.format(0, 'day')) : 'Today';
  const yesterday = new Date(today.getFullYear(), today.getMonth(), today.getDate() - 1, 12);
  if (key === dayKey(yesterday.toISOString())) return rtf ? capitalise(rtf.format(-1, 'day')) : 'Yesterday';
  return d.toLocaleDateString(english ? [] : locale, { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' });
}
