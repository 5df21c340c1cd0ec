/** REFERENCE_NOTES §1.3: a reply quotes the original text, capped at 100 characters plus "...". */
export function quoteOf(text: string, maxChars = 100): string {
  const chars = [...text];
  return chars.length <= maxChars ? text : chars.slice(0, maxChars).join('') + '...';
}
