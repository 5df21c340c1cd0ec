/** A level-2 section of a markdown document: its heading text (after `## `) and the lines below it. */
export interface MarkdownSection {
  heading: string;
  lines: string[];
}

export interface MarkdownDocument {
  /** Lines before the first `## ` heading. */
  lead: string[];
  sections: MarkdownSection[];
}

/** Split on `## ` headings outside code fences. `renderSections(parseSections(t)) === t`. */
export function parseSections(text: string): MarkdownDocument {
  const doc: MarkdownDocument = { lead: [], sections: [] };
  let current: MarkdownSection | undefined;
  let inFence = false;
  for (const line of text.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) inFence = !inFence;
    const heading = inFence ? null : /^## (.*)$/.exec(line);
    if (heading) {
      current = { heading: heading[1]!.trim(), lines: [] };
      doc.sections.push(current);
    } else if (current) current.lines.push(line);
    else doc.lead.push(line);
  }
  return doc;
}

export function renderSections(doc: MarkdownDocument): string {
  const lines = [...doc.lead];
  for (const section of doc.sections) lines.push(`## ${section.heading}`, ...section.lines);
  return lines.join('\n');
}

/** Section body as text, without the blank lines that separate it from its neighbours. */
export function sectionText(section: MarkdownSection): string {
  return section.lines.join('\n').trim();
}
