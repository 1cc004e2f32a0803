/**
 * The feedback form in the drawer's footer (docs/API.md `POST /api/feedback`): a bug or
 * a wish, in the person's words, for whoever runs the instance. The log is anonymous and meant for
 * intent only, so the form asks for no health details.
 */
import { useState } from 'preact/hooks';
import { MAX_FEEDBACK_INTENT_CHARS } from '../../src/common/limits.js';
import { lengthNotice } from '../lib/char-limit.js';
import { sendFeedback } from './conversation-api.js';

export function FeedbackForm() {
  const [kind, setKind] = useState<'bug' | 'feature'>('feature');
  const [intent, setIntent] = useState('');
  const [state, setState] = useState<'idle' | 'sending' | 'sent' | { error: string }>('idle');

  const tooLong = lengthNotice('Feedback', intent.trim(), MAX_FEEDBACK_INTENT_CHARS);

  async function submit(e: Event) {
    e.preventDefault();
    if (!intent.trim() || tooLong || state === 'sending') return;
    setState('sending');
    try {
      await sendFeedback(kind, intent.trim());
      setIntent('');
      setState('sent');
    } catch (err) {
      setState({ error: (err as Error).message });
    }
  }

  return (
    <details class="chat-feedback">
      <summary>Send feedback</summary>
      <form onSubmit={submit}>
        <fieldset class="chat-feedback-kind">
          <legend class="visually-hidden">Kind of feedback</legend>
          <label>
            <input
              type="radio"
              name="chat-feedback-kind"
              checked={kind === 'feature'}
              onChange={() => setKind('feature')}
            />
            Something I wanted
          </label>
          <label>
            <input
              type="radio"
              name="chat-feedback-kind"
              checked={kind === 'bug'}
              onChange={() => setKind('bug')}
            />
            Something went wrong
          </label>
        </fieldset>
        <label class="visually-hidden" for="chat-feedback-text">
          Feedback
        </label>
        <textarea
          id="chat-feedback-text"
          class="chat-feedback-text"
          rows={3}
          aria-invalid={tooLong ? true : undefined}
          aria-describedby={tooLong ? 'chat-feedback-limit' : undefined}
          placeholder="What did you want to do, or what went wrong?"
          value={intent}
          onInput={(e) => {
            setIntent(e.currentTarget.value);
            if (state === 'sent' || typeof state === 'object') setState('idle');
          }}
        />
        <p class="chat-hint">Describe the idea, not your data: please leave out health details.</p>
        <div class="chat-feedback-foot">
          <button
            type="submit"
            class="button chat-button-primary"
            disabled={!intent.trim() || tooLong !== null || state === 'sending'}
          >
            {state === 'sending' ? 'Sending…' : 'Send'}
          </button>
          {state === 'sent' && (
            <span class="chat-hint" role="status">
              Thank you, it is noted.
            </span>
          )}
          {tooLong && (
            <span class="chat-error" id="chat-feedback-limit" role="alert">
              {tooLong}
            </span>
          )}
          {typeof state === 'object' && (
            <span class="chat-error" role="alert">
              {state.error}
            </span>
          )}
        </div>
      </form>
    </details>
  );
}
