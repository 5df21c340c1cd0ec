// Just enough zod (v4) introspection to fuzz an op's args from its catalog schema: the keys of an
// object schema, seen through optional / nullable / default wrappers and arrays, and whether a
// value parses. Anything not recognised is treated as a leaf.

interface ZodLike {
  readonly _zod: { readonly def: { readonly type: string; readonly innerType?: ZodLike; readonly element?: ZodLike; readonly shape?: Record<string, ZodLike> } };
  safeParse(value: unknown): { success: boolean };
}

export type Schema = ZodLike;

function unwrap(schema: Schema): Schema {
  let s = schema;
  for (let i = 0; i < 8; i++) {
    const def = s._zod.def;
    if ((def.type === 'optional' || def.type === 'nullable' || def.type === 'default' || def.type === 'readonly') && def.innerType) s = def.innerType;
    else break;
  }
  return s;
}

/** The keys of an object schema (through wrappers), or undefined for anything else. */
export function shapeOf(schema: Schema): Record<string, Schema> | undefined {
  const s = unwrap(schema);
  return s._zod.def.type === 'object' ? s._zod.def.shape : undefined;
}

/** For an array of objects, the object's keys: nested fuzz goes one element deep. */
export function elementShapeOf(schema: Schema): Record<string, Schema> | undefined {
  const s = unwrap(schema);
  return s._zod.def.type === 'array' && s._zod.def.element ? shapeOf(s._zod.def.element) : undefined;
}

export function accepts(schema: Schema, value: unknown): boolean {
  return schema.safeParse(value).success;
}

/** One value per JSON type (and a few shapes of each): the wrong-type candidates. */
export const TYPE_SAMPLES: ReadonlyArray<readonly [string, unknown]> = [
  ['number', 12345],
  ['negative number', -1],
  ['float', 1.5],
  ['string', 'torture'],
  ['boolean', true],
  ['null', null],
  ['array', [1, 'x']],
  ['object', { torture: 1 }],
];

/** Values of the right JSON type at the edges: empty, blank, huge, hostile text, extreme numbers. */
export const EDGE_SAMPLES: ReadonlyArray<readonly [string, unknown]> = [
  ['empty string', ''],
  ['blank string', '   '],
  ['NUL string', 'a\u0000b'],
  ['5,000-char string', 'x'.repeat(5000)],
  ['traversal string', '../../../outside'],
  ['absolute path', '/etc/passwd'],
  ['newline string', 'a\nb\r\nc'],
  ['emoji and RTL', '\u202e😀\u0301'],
  ['zero', 0],
  ['-1', -1],
  ['2^53', 2 ** 53],
  ['1e308', 1e308],
  ['empty array', []],
  ['array of empty strings', ['', '']],
  ['array of 1,000 strings', Array.from({ length: 1000 }, (_, i) => `s${i}`)],
  ['empty object', {}],
  ['object with __proto__', JSON.parse('{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}')],
];
