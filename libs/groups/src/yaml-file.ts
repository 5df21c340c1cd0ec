import { readFileSync } from 'node:fs';
import { Document, isMap, isSeq, parseDocument, type Node } from 'yaml';
import { writeFileAtomicSync } from '@cccc/durable-fs';

/**
 * YAML 1.1 like the reference (PyYAML): timestamp-looking strings stay quoted, and block
 * sequences are not indented under their key, so an untouched file re-serialises byte for byte.
 */
const PARSE_OPTIONS = { version: '1.1' } as const;
const STRINGIFY_OPTIONS = { indentSeq: false, lineWidth: 0, singleQuote: true } as const;

export function parseYamlDocument(text: string): Document {
  const doc = parseDocument(text, PARSE_OPTIONS);
  if (doc.errors.length > 0) throw doc.errors[0];
  return doc;
}

export function readYamlDocument(path: string): Document {
  return parseYamlDocument(readFileSync(path, 'utf8'));
}

export function stringifyYamlDocument(doc: Document): string {
  return doc.toString(STRINGIFY_OPTIONS);
}

export function newYamlDocument(value: unknown): Document {
  return new Document(value, PARSE_OPTIONS);
}

export function writeYamlDocument(path: string, doc: Document): void {
  writeFileAtomicSync(path, stringifyYamlDocument(doc));
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * Apply the difference between `before` and `after` (plain data) to the document node by node,
 * so keys, comments and formatting the change does not touch are kept as they were.
 */
export function applyPlainChange(doc: Document, before: unknown, after: unknown): void {
  applyAt(doc, [], before, after);
}

function applyAt(doc: Document, path: (string | number)[], before: unknown, after: unknown): void {
  if (sameJson(before, after)) return;
  const node = path.length === 0 ? doc.contents : (doc.getIn(path, true) as Node | undefined);
  if (isPlainObject(before) && isPlainObject(after) && isMap(node)) {
    for (const key of Object.keys(before)) {
      if (!(key in after)) doc.deleteIn([...path, key]);
    }
    for (const [key, value] of Object.entries(after)) {
      if (key in before) applyAt(doc, [...path, key], before[key], value);
      else doc.setIn([...path, key], doc.createNode(value));
    }
    return;
  }
  if (Array.isArray(before) && Array.isArray(after) && isSeq(node) && before.length === after.length) {
    after.forEach((value, index) => applyAt(doc, [...path, index], before[index], value));
    return;
  }
  if (path.length === 0) {
    doc.contents = doc.createNode(after) as typeof doc.contents;
    return;
  }
  doc.setIn(path, doc.createNode(after));
}
