import type { FakeProgram } from './fake-pty.js';

const ESC = '\x1b';
const PASTE_START = `${ESC}[200~`;
const PASTE_END = `${ESC}[201~`;

export interface FakeAgentOptions {
  readonly bracketedPaste?: boolean;
  readonly thinkingMs?: number;
  readonly exitAfter?: number;
  readonly title?: string;
  /** Delay before the first output, to exercise readiness gates. */
  readonly startDelayMs?: number;
}

/**
 * The in-memory twin of tools/fake-agent/fake-agent.mjs, so the fake PTY can pass the same
 * contract suite as node-pty running the real script. Also reads its options from argv, which
 * lets the contract suite use one spawn description for both.
 */
export function fakeAgentProgram(defaults: FakeAgentOptions = {}): FakeProgram {
  return (proc) => {
    const opts = { bracketedPaste: true, thinkingMs: 0, exitAfter: 0, title: 'fake-agent', startDelayMs: 0, ...defaults };
    const argv = proc.options.argv;
    for (let i = 0; i < argv.length; i++) {
      if (argv[i] === '--no-bracketed-paste') opts.bracketedPaste = false;
      else if (argv[i] === '--thinking-ms') opts.thinkingMs = Number(argv[++i]);
      else if (argv[i] === '--exit-after') opts.exitAfter = Number(argv[++i]);
      else if (argv[i] === '--title') opts.title = String(argv[++i]);
      else if (argv[i] === '--start-delay-ms') opts.startDelayMs = Number(argv[++i]);
    }
    let pending = '';
    let carry = '';
    let inPaste = false;
    let received = 0;
    let busy = Promise.resolve();
    let started = false;
    const decoder = new TextDecoder();
    const quit = (code: number) => {
      if (opts.bracketedPaste) proc.output(`${ESC}[?2004l`);
      proc.output(`${ESC}[?1049l`);
      proc.exit(code);
    };
    proc.onSignal((signal) => {
      if (signal !== 'SIGTERM') return false;
      quit(143);
      return true;
    });
    const submit = (text: string) => {
      busy = busy.then(async () => {
        if (opts.thinkingMs > 0) {
          proc.output('\r\n(thinking)');
          await new Promise((r) => setTimeout(r, opts.thinkingMs));
        }
        proc.output(`\r\n[fake-agent] received: ${text.replace(/\r?\n/g, '\\n')}\r\n`);
        received++;
        if (opts.exitAfter > 0 && received >= opts.exitAfter) return quit(0);
        proc.output('fake-agent> ');
      });
    };
    proc.onInput((bytes) => {
      if (!started) return;
      let s = carry + decoder.decode(bytes, { stream: true });
      carry = '';
      while (s.length > 0) {
        if (inPaste) {
          const end = s.indexOf(PASTE_END);
          if (end < 0) {
            pending += s;
            return;
          }
          pending += s.slice(0, end);
          inPaste = false;
          s = s.slice(end + PASTE_END.length);
          continue;
        }
        if (s.startsWith(PASTE_START)) {
          inPaste = true;
          s = s.slice(PASTE_START.length);
          continue;
        }
        if (s[0] === ESC && PASTE_START.startsWith(s)) {
          carry = s;
          return;
        }
        const ch = s[0]!;
        s = s.slice(1);
        if (ch === '\r') {
          submit(pending);
          pending = '';
        } else {
          pending += ch;
          proc.output(ch === '\n' ? '\r\n' : ch);
        }
      }
    });
    const start = () => {
      started = true;
      proc.output(`${ESC}[?1049h${ESC}[H${ESC}[2J${ESC}]0;${opts.title}\x07`);
      if (opts.bracketedPaste) proc.output(`${ESC}[?2004h`);
      proc.output(`${opts.title} ready\r\nfake-agent> `);
    };
    if (opts.startDelayMs > 0) setTimeout(start, opts.startDelayMs);
    else start();
  };
}
