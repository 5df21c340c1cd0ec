/** §7.1: an omitted or blank `by` is the human user. Events record the resolved principal. */
export function principalOf(by: string | undefined): string {
  const trimmed = (by ?? '').trim();
  return trimmed === '' ? 'user' : trimmed;
}
