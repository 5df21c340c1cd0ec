import { createRequire } from 'node:module';
import type { SerializeAddon } from '@xterm/addon-serialize';
import type { ITerminalAddon, Terminal } from '@xterm/headless';

// Both are CJS bundles (STACK.md §3.8), required at the first render rather than at import: a
// daemon that never renders a terminal does not keep the parser's ~6 MB resident.
const requireFromHere = createRequire(import.meta.url);
let xterm: { Terminal: typeof Terminal; SerializeAddon: typeof SerializeAddon } | undefined;
function loadXterm(): NonNullable<typeof xterm> {
  xterm ??= {
    Terminal: (requireFromHere('@xterm/headless') as typeof import('@xterm/headless')).Terminal,
    SerializeAddon: (requireFromHere('@xterm/addon-serialize') as typeof import('@xterm/addon-serialize')).SerializeAddon,
  };
  return xterm;
}

export interface RenderSize {
  readonly cols: number;
  readonly rows: number;
}

export interface RenderOptions extends RenderSize {
  /** Lines kept above the screen. Bounded by the caller's text budget, not the byte count. */
  readonly scrollback: number;
}

/** A terminal that has parsed a byte range. Dispose it when done. */
export interface RenderedScreen extends Disposable {
  /** Every buffer line (scrollback then screen) as plain text, right-trimmed. */
  plainLines(): string[];
  /**
   * The bottom lines holding at least `minChars` non-blank characters (or all lines), in order.
   * Lets terminal_tail skip translating thousands of lines it would cut away anyway.
   */
  plainTailLines(minChars: number): string[];
  /** ANSI that rebuilds the screen (and up to `scrollbackRows` lines above it). */
  serialize(scrollbackRows?: number): string;
  /** Whether the app had the alternate screen active at the end of the range. */
  readonly alternateScreen: boolean;
}

// Feeding the parser in 1 MiB slices measured ~10% faster than one huge write, and keeps each
// slice's decode buffer small.
const SLICE = 1024 * 1024;

/**
 * addon-serialize is typed against `@xterm/xterm`'s Terminal; it supports the headless Terminal
 * (same buffer API, per xterm's docs), whose addon type differs only in that parameter type.
 */
function asHeadlessAddon(addon: SerializeAddon): ITerminalAddon {
  return addon as unknown as ITerminalAddon;
}

/**
 * Renders raw PTY bytes in a fresh headless terminal. There is deliberately no long-lived parser
 * per PTY: rendering happens only when someone asks (tail, snapshot, attach bootstrap).
 */
export async function renderBytes(bytes: Uint8Array, options: RenderOptions): Promise<RenderedScreen> {
  const { Terminal, SerializeAddon } = loadXterm();
  const term = new Terminal({
    cols: options.cols,
    rows: options.rows,
    scrollback: Math.max(0, Math.floor(options.scrollback)),
    allowProposedApi: true,
  });
  const serializer = new SerializeAddon();
  term.loadAddon(asHeadlessAddon(serializer));
  for (let offset = 0; offset < bytes.byteLength; offset += SLICE) {
    term.write(bytes.subarray(offset, Math.min(bytes.byteLength, offset + SLICE)));
  }
  // Writes are parsed asynchronously; the callback of the last one means all have been.
  await new Promise<void>((resolve) => term.write('', resolve));
  const buffer = term.buffer.active;
  return {
    alternateScreen: buffer.type === 'alternate',
    plainLines() {
      const out: string[] = [];
      for (let y = 0; y < buffer.length; y++) {
        const line = buffer.getLine(y);
        if (!line) continue;
        const text = line.translateToString(true);
        // A wrapped line continues the previous one: join so copied text is not broken.
        if (line.isWrapped && out.length > 0) out[out.length - 1] += text;
        else out.push(text);
      }
      return out;
    },
    plainTailLines(minChars: number) {
      const out: string[] = [];
      let chars = 0;
      let pending = '';
      for (let y = buffer.length - 1; y >= 0 && chars <= minChars; y--) {
        const line = buffer.getLine(y);
        if (!line) continue;
        // Wrapped rows continue the row above: build the logical line bottom-up.
        pending = line.translateToString(true) + pending;
        if (line.isWrapped && y > 0) continue;
        out.push(pending);
        const trimmed = pending.trimEnd().length;
        if (trimmed > 0) chars += trimmed + 1;
        pending = '';
      }
      return out.reverse();
    },
    serialize(scrollbackRows?: number) {
      return serializer.serialize(scrollbackRows === undefined ? {} : { scrollback: scrollbackRows });
    },
    [Symbol.dispose]() {
      term.dispose();
    },
  };
}
