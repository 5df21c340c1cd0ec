import type { HeadlessPermission } from '@cccc/ipc-protocol';

// A pending MCP elicitation (kind `elicitation`, answered with action `interaction`) as the card
// asks it: the server's message, a field per property of a typed form, Accept / Decline.

export type FieldKind = 'choice' | 'boolean' | 'number' | 'integer' | 'text';

export interface ElicitationField {
  readonly name: string;
  readonly label: string;
  readonly kind: FieldKind;
  /** The allowed values of a `choice`. */
  readonly options: readonly string[];
  readonly required: boolean;
}

export interface CardElicitation {
  readonly server: string;
  readonly message: string;
  /** A URL the person is asked to visit (mode `url`); no fields then. */
  readonly url: string | null;
  readonly fields: readonly ElicitationField[];
}

/** The elicitation of a pending request, or null for any other kind. */
export function cardElicitation(p: Pick<HeadlessPermission, 'kind' | 'summary'>): CardElicitation | null {
  if (p.kind !== 'elicitation') return null;
  const s = p.summary;
  const schema = (s.requested_schema ?? {}) as { properties?: Record<string, Record<string, unknown>>; required?: unknown };
  const required = new Set(Array.isArray(schema.required) ? schema.required.filter((r): r is string => typeof r === 'string') : []);
  const fields = Object.entries(schema.properties ?? {}).map(([name, f]): ElicitationField => {
    const options = Array.isArray(f.enum)
      ? f.enum.filter((v): v is string => typeof v === 'string')
      : Array.isArray(f.oneOf)
        ? (f.oneOf as Array<{ const?: unknown }>).flatMap((o) => (typeof o.const === 'string' ? [o.const] : []))
        : [];
    const kind: FieldKind = options.length > 0 ? 'choice' : f.type === 'boolean' ? 'boolean' : f.type === 'number' ? 'number' : f.type === 'integer' ? 'integer' : 'text';
    return { name, label: typeof f.title === 'string' && f.title !== '' ? f.title : name, kind, options, required: required.has(name) };
  });
  return { server: String(s.server_name ?? ''), message: String(s.message ?? ''), url: typeof s.url === 'string' ? s.url : null, fields };
}

/**
 * The `accept` response for what the person filled in (strings from the inputs), or null while a
 * required field is empty or a number does not parse. Empty optional fields are left out.
 */
export function acceptResponse(e: CardElicitation, values: Readonly<Record<string, string | boolean>>): { action: 'accept'; content?: Record<string, unknown> } | null {
  if (e.url !== null) return { action: 'accept' };
  const content: Record<string, unknown> = {};
  for (const f of e.fields) {
    const v = values[f.name];
    if (f.kind === 'boolean') {
      content[f.name] = v === true;
      continue;
    }
    const text = typeof v === 'string' ? v.trim() : '';
    if (text === '') {
      if (f.required) return null;
      continue;
    }
    if (f.kind === 'number' || f.kind === 'integer') {
      const n = Number(text);
      if (!Number.isFinite(n) || (f.kind === 'integer' && !Number.isInteger(n))) return null;
      content[f.name] = n;
    } else {
      content[f.name] = text;
    }
  }
  return { action: 'accept', content };
}
