import { createContext, useCallback, useContext, useEffect, useRef, useState, type ReactNode } from 'react';

export type ToastTone = 'info' | 'ok' | 'bad';
interface ToastItem {
  readonly id: number;
  readonly text: string;
  readonly tone: ToastTone;
}

const ToastContext = createContext<(text: string, tone?: ToastTone) => void>(() => undefined);

/** Brief confirmations ("Saved", "Copied") announced politely to screen readers. */
export function ToastProvider({ children }: { children: ReactNode }) {
  const [items, setItems] = useState<ToastItem[]>([]);
  const next = useRef(0);
  const timers = useRef(new Set<ReturnType<typeof setTimeout>>());
  useEffect(() => () => timers.current.forEach(clearTimeout), []);
  const show = useCallback((text: string, tone: ToastTone = 'info') => {
    const id = ++next.current;
    setItems((list) => [...list.slice(-2), { id, text, tone }]);
    const timer = setTimeout(() => {
      timers.current.delete(timer);
      setItems((list) => list.filter((t) => t.id !== id));
    }, 4000);
    timers.current.add(timer);
  }, []);
  return (
    <ToastContext.Provider value={show}>
      {children}
      <div className="ui-toasts" aria-live="polite">
        {items.map((t) => (
          <div key={t.id} className="ui-toast" data-tone={t.tone}>
            {t.text}
          </div>
        ))}
      </div>
    </ToastContext.Provider>
  );
}

export const useToast = () => useContext(ToastContext);
