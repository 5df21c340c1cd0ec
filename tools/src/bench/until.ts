/** Polls `check` every `everyMs` until it yields a truthy value, or fails after `timeoutMs`. */
export async function until<T>(check: () => T | Promise<T>, what: string, timeoutMs: number, everyMs = 50): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
