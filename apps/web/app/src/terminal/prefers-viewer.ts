/**
 * A phone or a touch-only screen watches a terminal rather than driving it: attaching as the
 * writer would resize the agent's PTY to a phone for everyone else.
 */
export function prefersViewer(): boolean {
  if (typeof window === 'undefined' || !window.matchMedia) return false;
  return window.matchMedia('(max-width: 760px)').matches || window.matchMedia('(hover: none) and (pointer: coarse)').matches;
}
