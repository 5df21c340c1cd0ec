/**
 * An op result whose JSON text is already known, e.g. cached per content revision by the
 * handler. A large read (context_get with thousands of tasks is ~1 MB) then costs one string
 * concatenation per call instead of a full JSON.stringify of the same unchanged value.
 *
 * `json` MUST be `JSON.stringify(value)`. Anything that serializes the response generically
 * still gets the same bytes through `toJSON`; `encodeLineText` splices `json` in directly.
 */
export class PreserializedResult<T = Record<string, unknown>> {
  private line: Uint8Array | undefined;

  constructor(
    readonly value: T,
    readonly json: string,
  ) {}

  /**
   * The whole ok response line as UTF-8, encoded once: writing a 1 MB string to a socket
   * re-encodes it on every call, which showed up as the daemon's top cost in a profile.
   */
  okLineBytes(): Uint8Array {
    this.line ??= new TextEncoder().encode(`{"v":1,"ok":true,"result":${this.json},"error":null}\n`);
    return this.line;
  }

  static of<T>(value: T): PreserializedResult<T> {
    return new PreserializedResult(value, JSON.stringify(value));
  }

  toJSON(): T {
    return this.value;
  }
}

/** The pre-serialized result of an ok envelope `{v:1, ok:true, result, error:null}` (okResponse's shape), if it has one. */
export function preserializedOf(value: unknown): PreserializedResult | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  const r = value as Record<string, unknown>;
  const result = r['result'];
  if (!(result instanceof PreserializedResult) || r['v'] !== 1 || r['ok'] !== true || r['error'] !== null) return undefined;
  // Only then is the spliced text the same bytes JSON.stringify gives the envelope.
  const keys = Object.keys(r);
  if (keys.length !== 4 || keys[0] !== 'v' || keys[1] !== 'ok' || keys[2] !== 'result' || keys[3] !== 'error') return undefined;
  return result;
}

/** The JSON text of such an envelope, without serializing the result again. */
export function preserializedResponseText(value: unknown): string | undefined {
  const result = preserializedOf(value);
  return result ? `{"v":1,"ok":true,"result":${result.json},"error":null}` : undefined;
}

/** One response line for a socket: cached UTF-8 bytes for a pre-serialized result, else text. */
export function encodeResponseLine(value: unknown): string | Uint8Array {
  return preserializedOf(value)?.okLineBytes() ?? JSON.stringify(value) + '\n';
}
