/** §7.1: an omitted or blank `by` means the op's default principal. */
export function principalOf(by: string | undefined, fallback = 'user'): string {
  const trimmed = by?.trim();
  return trimmed ? trimmed : fallback;
}
