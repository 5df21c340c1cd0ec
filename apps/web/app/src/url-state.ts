/** What the address bar asks for: `/?group=<group_id>` opens that group's chat, `&actor=` a terminal. */
export interface DeepLink {
  readonly groupId: string | null;
  readonly actorId: string | null;
}

/**
 * Read the deep link and drop a `?token=` from the address bar: the server already moved it into
 * an HttpOnly cookie when it served this page, and a token must not stay in history or be shared
 * by copying the URL.
 */
export function adoptDeepLink(location: Location, history: History): DeepLink {
  const url = new URL(location.href);
  const link = { groupId: url.searchParams.get('group'), actorId: url.searchParams.get('actor') };
  if (url.searchParams.has('token')) {
    url.searchParams.delete('token');
    history.replaceState(history.state, '', url.pathname + url.search + url.hash);
  }
  return link;
}

/** Keep the address bar in step with what is open, so a reload or a shared link reopens it. */
export function writeDeepLink(history: History, link: DeepLink): void {
  const url = new URL(window.location.href);
  url.searchParams.delete('token');
  if (link.groupId) url.searchParams.set('group', link.groupId);
  else url.searchParams.delete('group');
  if (link.actorId) url.searchParams.set('actor', link.actorId);
  else url.searchParams.delete('actor');
  const next = url.pathname + url.search + url.hash;
  if (next !== window.location.pathname + window.location.search + window.location.hash) history.replaceState(history.state, '', next);
}
