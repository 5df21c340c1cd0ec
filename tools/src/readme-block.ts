// The README's quick start as data: the first ```sh block under "## Using it", one command per
// line, each split into the command and its trailing `# comment` (a `#` inside quotes or `$(…)`
// belongs to the command). Pure, so the parsing is tested without running anything.

export interface QuickStartLine {
  /** The line as written. */
  readonly text: string;
  /** Without its comment, trimmed. */
  readonly command: string;
  /** The comment without `#`, trimmed; '' when none. */
  readonly comment: string;
}

export function quickStartBlock(text: string, heading = '## Using it'): QuickStartLine[] {
  const readme = `\n${text}`;
  const section = readme.indexOf(`\n${heading}\n`);
  if (section < 0) throw new Error(`README has no "${heading}" section`);
  const open = readme.indexOf('\n```sh\n', section);
  const nextHeading = readme.indexOf('\n## ', section + 1);
  if (open < 0 || (nextHeading >= 0 && open > nextHeading)) throw new Error(`"${heading}" has no sh code block`);
  const close = readme.indexOf('\n```', open + 6);
  return readme
    .slice(open + '\n```sh\n'.length, close)
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map(splitComment);
}

/** Split at the first unquoted `#` that starts a word, as the shell reads a comment. */
function splitComment(text: string): QuickStartLine {
  let quote: string | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote) {
      if (c === quote) quote = undefined;
      else if (c === '\\' && quote === '"') i++;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '#' && (i === 0 || /\s/.test(text[i - 1]!))) {
      return { text, command: text.slice(0, i).trim(), comment: text.slice(i + 1).trim() };
    }
  }
  return { text, command: text.trim(), comment: '' };
}
