// The README's quick start as data: the first ```sh block under "## Using it", one command per
// line, each split into the command and its trailing `# comment` (a `#` inside quotes or `$(…)`
// belongs to the command); and any section's first code block of a language. Pure, so the parsing
// is tested without running anything.

export interface QuickStartLine {
  /** The line as written. */
  readonly text: string;
  /** Without its comment, trimmed. */
  readonly command: string;
  /** The comment without `#`, trimmed; '' when none. */
  readonly comment: string;
}

export function quickStartBlock(text: string, heading = '## Using it'): QuickStartLine[] {
  return sectionCodeBlock(text, heading, 'sh')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map(splitComment);
}

/**
 * The body of the first ```<lang> block in the section under `heading` (a whole `## …` line),
 * before the next `## ` heading. Also how the release test takes each package README's example.
 */
export function sectionCodeBlock(text: string, heading: string, lang: string): string {
  const readme = `\n${text}`;
  const section = readme.indexOf(`\n${heading}\n`);
  if (section < 0) throw new Error(`README has no "${heading}" section`);
  const fence = `\n\`\`\`${lang}\n`;
  const open = readme.indexOf(fence, section);
  const nextHeading = readme.indexOf('\n## ', section + 1);
  if (open < 0 || (nextHeading >= 0 && open > nextHeading)) throw new Error(`"${heading}" has no ${lang} code block`);
  const close = readme.indexOf('\n```', open + fence.length - 1);
  return readme.slice(open + fence.length, close);
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
