import ts from 'typescript';

/**
 * The user-visible English a .tsx file hard-codes: JSX text and string-literal values of the
 * props a person reads (aria-label, title, placeholder, alt, label). Pure: source text in,
 * findings out. "English" is any run of two or more Latin letters, so symbols, numbers,
 * punctuation and `{t('...')}` expressions pass.
 */
export interface HardCoded {
  readonly line: number;
  readonly text: string;
}

const READ_PROPS = new Set(['aria-label', 'title', 'placeholder', 'alt', 'label', 'aria-description']);
const WORDY = /[A-Za-z]{2,}/;

export function hardCodedStrings(fileName: string, source: string, allowed: ReadonlySet<string> = new Set()): HardCoded[] {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const found: HardCoded[] = [];
  const report = (node: ts.Node, raw: string) => {
    const text = raw.replace(/\s+/g, ' ').trim();
    if (!WORDY.test(text) || allowed.has(text)) return;
    found.push({ line: file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1, text });
  };
  const visit = (node: ts.Node): void => {
    if (ts.isJsxText(node)) report(node, node.text);
    else if (ts.isJsxAttribute(node) && READ_PROPS.has(node.name.getText(file)) && node.initializer) {
      const init = node.initializer;
      if (ts.isStringLiteral(init)) report(init, init.text);
      else if (ts.isJsxExpression(init) && init.expression) {
        const e = init.expression;
        if (ts.isStringLiteral(e) || ts.isNoSubstitutionTemplateLiteral(e)) report(e, e.text);
        else if (ts.isTemplateExpression(e)) report(e, [e.head.text, ...e.templateSpans.map((s) => s.literal.text)].join(' '));
      }
    } else if (ts.isJsxExpression(node) && node.expression && (ts.isStringLiteral(node.expression) || ts.isNoSubstitutionTemplateLiteral(node.expression)) && ts.isJsxElement(node.parent)) {
      // `{'Save'}` as a child is JSX text too
      report(node.expression, node.expression.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}
