/**
 * Where the person writes: a growing text box, the send button that becomes a stop
 * button while a turn runs, and a microphone where the browser can take dictation (a dictated
 * message is sent as a voice turn, `voiceMode: true`, and its answer read aloud). Enter sends,
 * Shift+Enter starts a new line.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { MicIcon, SendIcon, StopIcon } from './chat-icons.js';
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

export function Composer({ disabled, autoFocus }: { disabled: boolean; autoFocus: boolean }) {
  const text = draft.value;
  const setText = (v: string) => {
    draft.value = v;
  };
  const [listening, setListening] = useState<Listening | null>(null);
  const [micProblem, setMicProblem] = useState<string | null>(null);
  const box = useRef<HTMLTextAreaElement>(null);
  const active = turnActive.value;
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

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    el.style.height = 'auto';
    el.style.height = `${Math.min(el.scrollHeight, MAX_HEIGHT_PX)}px`;
  }, [text]);

  async function send(body: string, voice: boolean) {
    if (!body.trim() || active || disabled) return;
    setText('');
    const sent = await sendMessage(body, { voice });
    if (!sent) setText(body);
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
        void send(text, false);
      }}
    >
      {micProblem && (
        <p class="chat-mic-problem" role="alert">
          {micProblem}
        </p>
      )}
      {text.length >= COUNTER_FROM && (
        <p
          id="chat-input-count"
          class={`chat-input-count${text.length > MAX_MESSAGE_CHARS ? ' chat-input-over' : ''}`}
          aria-live="polite"
          data-chat-count=""
        >
          {text.length > MAX_MESSAGE_CHARS
            ? `${(text.length - MAX_MESSAGE_CHARS).toLocaleString()} characters over the limit of ${MAX_MESSAGE_CHARS.toLocaleString()}`
            : `${(MAX_MESSAGE_CHARS - text.length).toLocaleString()} characters left`}
        </p>
      )}
      <div class="chat-compose-row">
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
          maxLength={MAX_MESSAGE_CHARS}
          aria-describedby={text.length >= COUNTER_FROM ? 'chat-input-count' : undefined}
          onInput={(e) => setText(e.currentTarget.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
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
            onClick={() => {
              if (stopReady) void stopTurn();
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
