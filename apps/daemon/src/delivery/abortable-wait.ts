import type { Event } from '@cccc/pty-runtime';

/**
 * Waits a delivery step does (readiness, settle, bracketed paste), ended early by shutdown.
 * Each clears its own timer and listener when it ends, so a pending delivery never keeps a
 * stopping daemon's event loop alive (the readiness wait alone was 10 s).
 */

/** true when `done` settles first; false after `timeoutMs` or on abort. */
export function waitUntil(done: Promise<unknown>, timeoutMs: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const finish = (value: boolean) => {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      resolve(value);
    };
    const onAbort = () => finish(false);
    const timer = setTimeout(() => finish(false), Math.max(0, timeoutMs));
    signal.addEventListener('abort', onAbort);
    done.then(
      () => finish(true),
      () => finish(false),
    );
  });
}

/** true once `event` fires with a value passing `accept`; false after `timeoutMs` or on abort. */
export async function waitForEvent<T>(event: Event<T>, accept: (value: T) => boolean, timeoutMs: number, signal: AbortSignal): Promise<boolean> {
  let subscription: Disposable | undefined;
  const fired = new Promise<void>((resolve) => {
    subscription = event((value) => {
      if (accept(value)) resolve();
    });
  });
  try {
    return await waitUntil(fired, timeoutMs, signal);
  } finally {
    subscription?.[Symbol.dispose]();
  }
}

/** A pause that shutdown cuts short. */
export async function pause(ms: number, signal: AbortSignal): Promise<void> {
  await waitUntil(new Promise(() => undefined), ms, signal);
}
