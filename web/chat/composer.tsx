/**
 * Where the person writes: a growing text box, the send button that becomes a stop
 * button while a turn runs, and a microphone where the browser can take dictation (a dictated
 * message is sent as a voice turn, `voiceMode: true`, and its answer read aloud). Enter sends,
 * Shift+Enter starts a new line. The paperclip uploads a document as a report (lab result,
 * letter, photo; read in the background, listed on Reports) and starts a message about it.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { graphemeLength, MAX_UNITS_PER_CHARACTER } from '../../src/common/graphemes.js';
import { ApiError } from '../lib/api.js';
import { forInputMethod } from '../lib/input-method-keys.js';
import { REPORT_ACCEPT, uploadReport } from '../lib/reports-api.js';
import { keepChatDraftOnSignOut, noteSending, takeChatDraft } from './chat-draft-kept.js';
import { MicIcon, PaperclipIcon, SendIcon, StopIcon } from './chat-icons.js';
import { draft } from './chat-state.js';
import { MAX_MESSAGE_CHARS } from './chat-types.js';
import { sendMessage } from './conversation-actions.js';
import { stopping, stopTurn, turnActive } from './turn-runner.js';
import { canListen, type Listening, listen, stopSpeaking } from './voice.js';

const MAX_HEIGHT_PX = 160;
/**
 * The stop button takes the send button's place under the pointer: for this long after it
 * appears it ignores clicks, so a double click (or two quick taps) on Send sends once and does
 * not stop the turn it just sent.
 */
const STOP_GRACE_MS = 600;
/** The counter of characters left shows from this many characters on. */
const COUNTER_FROM = MAX_MESSAGE_CHARS * 0.9;

/**
 * How many characters `text` has as the server counts them (overLimit: an emoji, a CJK
 * character outside the BMP, a ZWJ family is one), or null while it is clearly short of the
 * counter (UTF-16 units are never fewer than characters, so a short text is not segmented on every
 * key), or 'too long' for a paste far over the limit. The box has no maxlength: Chromium's counts
 * UTF-16 units, which cut a message of emoji at half the limit, and could cut one mid-emoji.
 */
function charCount(text: string): number | 'too long' | null {
  if (text.length < COUNTER_FROM) return null;
  if (text.length > MAX_MESSAGE_CHARS * MAX_UNITS_PER_CHARACTER) return 'too long';
  return graphemeLength(text);
}

/** The counter's words for `count` characters (a count, or 'too long'). */
function countNote(count: number | 'too long'): string {
  const max = MAX_MESSAGE_CHARS.toLocaleString();
  if (count === 'too long') return `Far over the limit of ${max} characters`;
  const over = count - MAX_MESSAGE_CHARS;
  if (over > 0) return `${over.toLocaleString()} character${over === 1 ? '' : 's'} over the limit of ${max}`;
  return `${(MAX_MESSAGE_CHARS - count).toLocaleString()} characters left`;
}

/** A touch screen, where focusing the message box pops its keyboard up. */
const touchScreen = () => matchMedia('(pointer: coarse)').matches;

export function Composer({ disabled, autoFocus }: { disabled: boolean; autoFocus: boolean }) {
  const text = draft.value;
  const setText = (v: string) => {
    draft.value = v;
  };
  const [listening, setListening] = useState<Listening | null>(null);
  const [micProblem, setMicProblem] = useState<string | null>(null);
  const [attachNote, setAttachNote] = useState<string | null>(null);
  const [attaching, setAttaching] = useState(false);
  const picker = useRef<HTMLInputElement>(null);
  const box = useRef<HTMLTextAreaElement>(null);
  const active = turnActive.value;
  const count = charCount(text);
  const over = count === 'too long' || (count !== null && count > MAX_MESSAGE_CHARS);
  const showCount = count === 'too long' || (count !== null && count >= COUNTER_FROM);
  const [stopReady, setStopReady] = useState(false);

  useEffect(() => {
    setStopReady(false);
    if (!active) return;
    const timer = setTimeout(() => setStopReady(true), STOP_GRACE_MS);
    return () => clearTimeout(timer);
  }, [active]);

  useEffect(() => {
    if (autoFocus) box.current?.focus();
  }, [autoFocus]);

  // a message the session's end interrupted comes back into the box after the sign-in
  useEffect(() => {
    keepChatDraftOnSignOut();
    const kept = takeChatDraft();
    if (kept !== null && !draft.value.trim()) draft.value = kept;
  }, []);

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    el.style.height = 'auto';
    el.style.height = `${Math.min(el.scrollHeight, MAX_HEIGHT_PX)}px`;
  }, [text]);

  async function send(body: string, voice: boolean) {
    if (!body.trim() || active || disabled) return;
    // on its way until the request settles: kept if the session ended meanwhile (chat-draft-kept.ts)
    noteSending(body);
    setText('');
    const sent = await sendMessage(body, { voice });
    noteSending('');
    if (!sent) setText(body);
  }

  async function attach(file: File | undefined) {
    if (!file) return;
    setAttaching(true);
    setAttachNote(`Uploading ${file.name}…`);
    try {
      const { filename } = await uploadReport(file);
      setAttachNote(`${file.name} is being read; it will be on Reports as ${filename}.`);
      if (!draft.value.trim()) setText(`I uploaded ${file.name} (report ${filename}). `);
      box.current?.focus();
    } catch (e) {
      setAttachNote(`${file.name} was not uploaded: ${e instanceof ApiError ? e.message : String(e)}`);
    } finally {
      setAttaching(false);
      if (picker.current) picker.current.value = '';
    }
  }

  function toggleMic() {
    if (listening) {
      listening.stop();
      return;
    }
    setMicProblem(null);
    stopSpeaking();
    let heard = '';
    const l = listen(
      (words, final) => {
        heard = words;
        setText(words);
        if (final) l.stop();
      },
      (error) => {
        setListening(null);
        if (error && error !== 'no-speech' && error !== 'aborted') {
          setMicProblem(
            error === 'not-allowed' || error === 'service-not-allowed'
              ? 'The microphone is not allowed for this page.'
              : 'Dictation did not work this time.',
          );
        } else if (heard.trim()) void send(heard, true);
      },
    );
    setListening(l);
  }

  return (
    <form
      class="chat-composer"
      onSubmit={(e) => {
        e.preventDefault();
        // Send makes way for Stop, and Stop for Send: the focus of a Send pressed from the keyboard
        // (or a desktop click) would fall to the page; it goes to the box, ready for the next message
        // (not on a touch screen, where focusing the box would pop its keyboard up)
        const pressed = (e as SubmitEvent).submitter;
        if (pressed && pressed === document.activeElement && !touchScreen()) box.current?.focus();
        void send(text, false);
      }}
    >
      {micProblem && (
        <p class="chat-mic-problem" role="alert">
          {micProblem}
        </p>
      )}
      {attachNote && (
        <p class="chat-mic-problem" role="status" data-chat-attach="">
          {attachNote}
        </p>
      )}
      {showCount && (
        <p
          id="chat-input-count"
          class={`chat-input-count${over ? ' chat-input-over' : ''}`}
          aria-live="polite"
          data-chat-count=""
        >
          {countNote(count ?? 0)}
        </p>
      )}
      <div class="chat-compose-row">
        <button
          type="button"
          class="chat-icon-btn chat-attach"
          aria-label="Attach a document (lab result, letter, photo)"
          title="Attach a document"
          disabled={disabled || attaching}
          onClick={() => picker.current?.click()}
        >
          <PaperclipIcon />
        </button>
        <input
          ref={picker}
          type="file"
          hidden
          accept={REPORT_ACCEPT}
          onChange={(e) => void attach(e.currentTarget.files?.[0])}
        />
        {canListen() && (
          <button
            type="button"
            class={`chat-icon-btn chat-mic${listening ? ' chat-mic-on' : ''}`}
            aria-label={listening ? 'Stop dictation' : 'Dictate a message'}
            aria-pressed={listening !== null}
            disabled={disabled || active}
            onClick={toggleMic}
          >
            <MicIcon />
          </button>
        )}
        <label class="visually-hidden" for="chat-input">
          Message
        </label>
        <textarea
          id="chat-input"
          ref={box}
          class="chat-input"
          rows={1}
          placeholder={disabled ? 'Chat is not set up' : listening ? 'Listening…' : 'Message'}
          value={text}
          disabled={disabled}
          enterkeyhint="send"
          aria-invalid={over || undefined}
          aria-describedby={showCount ? 'chat-input-count' : undefined}
          onInput={(e) => setText(e.currentTarget.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && !e.shiftKey && !forInputMethod(e)) {
              e.preventDefault();
              void send(text, false);
            }
          }}
        />
        {active ? (
          <button
            type="button"
            class="chat-send chat-stop"
            aria-label="Stop"
            title="Stop"
            disabled={stopping.value || !stopReady}
            onClick={(e) => {
              if (!stopReady) return;
              // Stop makes way for Send: its focus goes to the box instead of falling to the page
              if (e.currentTarget === document.activeElement && !touchScreen()) box.current?.focus();
              void stopTurn();
            }}
          >
            <StopIcon />
          </button>
        ) : (
          <button
            type="submit"
            class="chat-send"
            aria-label="Send"
            title="Send"
            disabled={disabled || !text.trim()}
          >
            <SendIcon />
          </button>
        )}
      </div>
    </form>
  );
}
