/**
 * Voice: dictation with the browser's speech recognition (`SpeechRecognition`, or
 * `webkitSpeechRecognition` in Safari and Chrome) and replies read aloud with `speechSynthesis`.
 * Each part exists only where the browser offers it; the panel hides what is missing.
 */

/** The slice of the Web Speech API's recognition interface the widget uses. */
interface Recognition {
  lang: string;
  interimResults: boolean;
  continuous: boolean;
  onresult:
    | ((e: {
        resultIndex: number;
        results: ArrayLike<ArrayLike<{ transcript: string }> & { isFinal: boolean }>;
      }) => void)
    | null;
  onerror: ((e: { error: string }) => void) | null;
  onend: (() => void) | null;
  start(): void;
  stop(): void;
  abort(): void;
}

type RecognitionClass = new () => Recognition;

function recognitionClass(): RecognitionClass | undefined {
  const w = window as unknown as {
    SpeechRecognition?: RecognitionClass;
    webkitSpeechRecognition?: RecognitionClass;
  };
  return w.SpeechRecognition ?? w.webkitSpeechRecognition;
}

/** Whether the browser can take dictation. */
export function canListen(): boolean {
  return recognitionClass() !== undefined;
}

/** Whether the browser can read text aloud. */
export function canSpeak(): boolean {
  return typeof window.speechSynthesis !== 'undefined' && typeof SpeechSynthesisUtterance !== 'undefined';
}

/** A dictation in progress. */
export interface Listening {
  /** Stops listening; what was heard so far is delivered as final. */
  stop(): void;
}

/**
 * Starts dictation. `onText(text, final)` gets the words heard so far (final once the person
 * stopped speaking); `onEnd(error?)` runs once when listening ends (`error` is the browser's code,
 * e.g. "not-allowed" when the microphone is refused).
 */
export function listen(
  onText: (text: string, final: boolean) => void,
  onEnd: (error?: string) => void,
): Listening {
  const Rec = recognitionClass();
  if (!Rec) {
    onEnd('unsupported');
    return { stop() {} };
  }
  const rec = new Rec();
  rec.lang = document.documentElement.lang || navigator.language || 'en';
  rec.interimResults = true;
  rec.continuous = false;
  let error: string | undefined;
  rec.onresult = (e) => {
    let text = '';
    let final = true;
    for (let i = 0; i < e.results.length; i++) {
      text += e.results[i][0]?.transcript ?? '';
      if (!e.results[i].isFinal) final = false;
    }
    onText(text.trim(), final);
  };
  rec.onerror = (e) => {
    error = e.error;
  };
  rec.onend = () => onEnd(error);
  try {
    rec.start();
  } catch {
    onEnd('start-failed');
  }
  return { stop: () => rec.stop() };
}

/** Reads `text` aloud, replacing whatever was being read. */
export function speak(text: string): void {
  if (!canSpeak() || !text.trim()) return;
  const synth = window.speechSynthesis;
  synth.cancel();
  const u = new SpeechSynthesisUtterance(text);
  u.lang = document.documentElement.lang || navigator.language || 'en';
  synth.speak(u);
}

/** Stops reading aloud. */
export function stopSpeaking(): void {
  if (canSpeak()) window.speechSynthesis.cancel();
}
