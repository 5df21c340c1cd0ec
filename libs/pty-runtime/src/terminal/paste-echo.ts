/**
 * A TUI's echo of a bracketed paste, as its output shows it: either a placeholder for a
 * collapsed paste (claude: `[Pasted text #1 +20 lines]`) or the start of the pasted text itself.
 */
export interface PasteEcho {
  /** Placeholders the TUI draws for a collapsed paste, compared with all whitespace removed. */
  readonly placeholders: readonly string[];
  /** Most the echo is waited for before the submit key goes anyway (the confirmation then judges). */
  readonly waitMs: number;
}

/** How much of the pasted text's first line must show: enough to hold a delivery's event id. */
const HEAD_CHARS = 64;
/** Output kept for matching: an echo may arrive in pieces. */
const WINDOW_CHARS = 16 * 1024;

// Escape sequences (CSI, OSC, two-byte ESC forms), then every whitespace and control character:
// a TUI positions words with cursor moves and wraps lines, so only the visible characters count.
const ESCAPES = /\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)|[@-Z\\-_])/g;
const INVISIBLE = /[\s\x00-\x1f\x7f\u00a0]+/g;

export function visibleText(output: string): string {
  return output.replace(ESCAPES, '').replace(INVISIBLE, '');
}

/** The start of the pasted text's first non-empty line, as `visibleText` would show it. */
export function pastedHead(pasted: string): string {
  const first = pasted.split('\n').find((line) => line.trim() !== '') ?? '';
  return visibleText(first).slice(0, HEAD_CHARS);
}

/** Fed the output that follows a paste; says when the paste's echo has shown. */
export class PasteEchoScanner {
  private readonly needles: string[];
  private readonly head: string;
  private readonly decoder = new TextDecoder();
  private window = '';

  constructor(echo: PasteEcho, pasted: string) {
    this.head = pastedHead(pasted);
    this.needles = [...echo.placeholders.map(visibleText), ...(this.head ? [this.head] : [])].filter((n) => n !== '');
  }

  /**
   * Whether a rendered screen shows the pasted text's head. A TUI that redraws only the cells
   * that changed leaves out of its output whatever was already on screen in that place (the
   * same `[cccc] user → peer1` of the message before), so the stream may never hold the head
   * whole while the screen does. Placeholders do not count here: an earlier paste's
   * placeholder stays visible in the transcript, while the head holds this delivery's event id.
   */
  shownOn(screen: string): boolean {
    return this.head !== '' && visibleText(screen).includes(this.head);
  }

  /** Takes one output chunk (bytes, a string, or an `{ data }` chunk); true once the echo showed. */
  feed(chunk: unknown): boolean {
    const text = this.decode(chunk);
    if (text === '') return false;
    this.window = (this.window + text).slice(-WINDOW_CHARS);
    const visible = visibleText(this.window);
    return this.needles.some((needle) => visible.includes(needle));
  }

  private decode(chunk: unknown): string {
    if (typeof chunk === 'string') return chunk;
    const data = chunk instanceof Uint8Array ? chunk : (chunk as { data?: unknown } | undefined)?.data;
    return data instanceof Uint8Array ? this.decoder.decode(data, { stream: true }) : '';
  }
}
