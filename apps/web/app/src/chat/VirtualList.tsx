import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useT } from '../i18n/I18nProvider';

/** First index i with offsets[i + 1] > y (the row that covers y), clamped to [0, n]. */
function rowAt(offsets: Float64Array, n: number, y: number): number {
  let lo = 0;
  let hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (offsets[mid + 1]! > y) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** Within this many pixels of the bottom counts as at the bottom. */
const STICK_SLACK_PX = 40;
const nearBottom = (el: HTMLElement) => el.scrollHeight - el.scrollTop - el.clientHeight < STICK_SLACK_PX;

export interface VirtualListProps<T> {
  readonly items: readonly T[];
  readonly keyOf: (item: T) => string;
  readonly render: (item: T) => ReactNode;
  /** Height assumed for a row until it has been measured. */
  readonly estimate?: number;
  /** Pixels rendered beyond each edge of the viewport. */
  readonly overscan?: number;
  /** Called when the user is near the top (load older); the caller guards re-entry. */
  readonly onReachTop?: () => void;
  /** Keys of the rows currently mounted, whenever that set changes. */
  readonly onRenderedChange?: (keys: readonly string[]) => void;
  readonly className?: string;
  readonly label?: string;
  /** Bring this row into view (a new `seq` asks again for the same key). */
  readonly focus?: { readonly key: string; readonly seq: number } | null;
}

/**
 * A windowed list for chat: only rows near the viewport are mounted; each mounted row is
 * measured with a ResizeObserver and its real height replaces the estimate. It sticks to the
 * bottom while the user is there (live messages stay in view) and otherwise keeps the first
 * visible row still when rows are prepended (older pages) or re-measured above it.
 */
export function VirtualList<T>({ items, keyOf, render, estimate = 72, overscan = 800, onReachTop, onRenderedChange, className, label, focus }: VirtualListProps<T>) {
  const t = useT();
  const scroller = useRef<HTMLDivElement>(null);
  const heights = useRef(new Map<string, number>());
  const [, setMeasured] = useState(0);
  const [viewport, setViewport] = useState({ top: 0, height: 0 });
  const stick = useRef(true);
  // Mirrors `stick` for rendering the "newest" button (the ref is what layout reads).
  const [away, setAway] = useState(false);
  const anchor = useRef<{ key: string; delta: number } | null>(null);
  // The scroll position the list last saw (scroll event) or set itself.
  const seenTop = useRef(0);

  const keys = useMemo(() => items.map(keyOf), [items, keyOf]);
  const indexOf = useMemo(() => new Map(keys.map((k, i) => [k, i])), [keys]);
  const n = keys.length;
  const offsets = new Float64Array(n + 1);
  for (let i = 0; i < n; i++) offsets[i + 1] = offsets[i]! + (heights.current.get(keys[i]!) ?? estimate);
  const total = offsets[n]!;
  const first = rowAt(offsets, n, viewport.top - overscan);
  const last = Math.min(n, rowAt(offsets, n, viewport.top + viewport.height + overscan) + 1);
  const layout = useRef({ offsets, keys, n });
  layout.current = { offsets, keys, n };

  const observer = useMemo(
    () =>
      typeof ResizeObserver === 'undefined'
        ? null
        : new ResizeObserver((entries) => {
            let changed = false;
            for (const entry of entries) {
              const key = (entry.target as HTMLElement).dataset.key;
              if (!key) continue;
              const h = entry.borderBoxSize?.[0]?.blockSize ?? (entry.target as HTMLElement).offsetHeight;
              if (h > 0 && Math.abs((heights.current.get(key) ?? -1) - h) > 0.5) {
                heights.current.set(key, h);
                changed = true;
              }
            }
            if (changed) setMeasured((t) => t + 1);
          }),
    [],
  );
  useEffect(() => () => observer?.disconnect(), [observer]);

  const measure = useCallback(
    (el: HTMLDivElement | null) => {
      if (!el || !observer) return;
      observer.observe(el);
      return () => observer.unobserve(el);
    },
    [observer],
  );

  const syncViewport = useCallback(() => {
    const el = scroller.current;
    if (!el) return;
    setViewport((v) => (v.top === el.scrollTop && v.height === el.clientHeight ? v : { top: el.scrollTop, height: el.clientHeight }));
  }, []);

  const onScroll = useCallback(() => {
    const el = scroller.current;
    if (!el) return;
    seenTop.current = el.scrollTop;
    stick.current = nearBottom(el);
    setAway(!stick.current);
    const { offsets: o, keys: k, n: count } = layout.current;
    const i = rowAt(o, count, el.scrollTop);
    anchor.current = i < count ? { key: k[i]!, delta: o[i]! - el.scrollTop } : null;
    syncViewport();
    if (el.scrollTop < 400) onReachTop?.();
  }, [onReachTop, syncViewport]);

  // After every render: pin to the bottom, or keep the anchor row where the user saw it.
  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return;
    // The browser reports a scroll with the next frame; a render can come first (a row was
    // re-measured, a message arrived). A position the list has not seen is that unreported
    // scroll: handle it now, or pinning (or the anchor) would pull the user back.
    if (Math.abs(el.scrollTop - seenTop.current) >= 1) onScroll();
    if (stick.current) {
      const bottom = el.scrollHeight - el.clientHeight;
      if (Math.abs(el.scrollTop - bottom) >= 1) el.scrollTop = bottom;
    } else if (anchor.current) {
      const i = indexOf.get(anchor.current.key);
      if (i !== undefined) {
        const desired = offsets[i]! - anchor.current.delta;
        if (Math.abs(el.scrollTop - desired) >= 1) el.scrollTop = desired;
      }
    }
    seenTop.current = el.scrollTop;
    syncViewport();
    if (el.scrollTop < 400 && n > 0) onReachTop?.();
  });

  // A focus request: leave the bottom and anchor the row a little below the top edge.
  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el || !focus) return;
    const i = layout.current.keys.indexOf(focus.key);
    if (i < 0) return;
    anchor.current = { key: focus.key, delta: 48 };
    el.scrollTop = Math.max(0, layout.current.offsets[i]! - 48);
    seenTop.current = el.scrollTop;
    // Still at the bottom (everything fits): nothing to jump back to.
    stick.current = nearBottom(el);
    setAway(!stick.current);
    syncViewport();
  }, [focus?.key, focus?.seq, syncViewport]);

  useEffect(() => {
    const el = scroller.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const ro = new ResizeObserver(() => syncViewport());
    ro.observe(el);
    return () => ro.disconnect();
  }, [syncViewport]);

  const renderedKey = useRef('');
  useEffect(() => {
    const slice = keys.slice(first, last);
    const joined = slice.join(',');
    if (joined !== renderedKey.current) {
      renderedKey.current = joined;
      onRenderedChange?.(slice);
    }
  });

  const rows: ReactNode[] = [];
  for (let i = first; i < last; i++) {
    const item = items[i]!;
    rows.push(
      <div key={keys[i]} data-key={keys[i]} ref={measure} className="vrow" style={{ top: offsets[i] }}>
        {render(item)}
      </div>,
    );
  }
  return (
    <div className="vlist-wrap">
      <div ref={scroller} className={`vlist ${className ?? ''}`} onScroll={onScroll} role="log" aria-label={label}>
        <div className="vlist-inner" style={{ height: total }}>
          {rows}
        </div>
      </div>
      {away && (
        <button
          className="vlist-newest"
          onClick={() => {
            const el = scroller.current;
            if (!el) return;
            stick.current = true;
            setAway(false);
            el.scrollTop = el.scrollHeight;
            seenTop.current = el.scrollTop;
          }}
        >
          {t('chat.jumpLatest')}
        </button>
      )}
    </div>
  );
}
