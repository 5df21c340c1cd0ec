/**
 * browser_asr: the browser's own speech recognition (Web Speech API). Which engine runs, and
 * where, is the browser's business (spec: browser_asr does not promise on-device recognition).
 * Absent in browsers that have none; the meeting view then says so instead of recording.
 */
export interface BrowserRecognizer {
  stop(): void;
}

interface SpeechResultLike {
  readonly isFinal: boolean;
  readonly 0: { readonly transcript: string };
}
interface SpeechRecognitionLike {
  lang: string;
  continuous: boolean;
  interimResults: boolean;
  onresult: ((e: { resultIndex: number; results: ArrayLike<SpeechResultLike> }) => void) | null;
  onerror: ((e: { error: string }) => void) | null;
  onend: (() => void) | null;
  start(): void;
  stop(): void;
}
type Ctor = new () => SpeechRecognitionLike;

export function browserAsrAvailable(): boolean {
  const w = window as unknown as { SpeechRecognition?: Ctor; webkitSpeechRecognition?: Ctor };
  return Boolean(w.SpeechRecognition ?? w.webkitSpeechRecognition);
}

export function startBrowserAsr(
  language: string,
  on: { partial: (text: string) => void; final: (text: string) => void; error: (code: string) => void },
): BrowserRecognizer {
  const w = window as unknown as { SpeechRecognition?: Ctor; webkitSpeechRecognition?: Ctor };
  const Rec = (w.SpeechRecognition ?? w.webkitSpeechRecognition)!;
  const rec = new Rec();
  rec.lang = language === 'auto' ? navigator.language : language;
  rec.continuous = true;
  rec.interimResults = true;
  let stopped = false;
  rec.onresult = (e) => {
    for (let i = e.resultIndex; i < e.results.length; i++) {
      const r = e.results[i]!;
      const text = r[0].transcript.trim();
      if (!text) continue;
      if (r.isFinal) on.final(text);
      else on.partial(text);
    }
  };
  rec.onerror = (e) => on.error(e.error);
  // Recognizers end on silence; keep listening until the user stops.
  rec.onend = () => {
    if (!stopped) rec.start();
  };
  rec.start();
  return {
    stop() {
      stopped = true;
      rec.stop();
    },
  };
}
