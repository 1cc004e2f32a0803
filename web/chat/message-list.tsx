/**
 * The transcript: stored messages and this page's notes, then the answer being
 * streamed with what the agent is doing. The list stays scrolled to the newest text unless the
 * person scrolled up to read. A capped (or timed out) last answer offers "Keep going", which
 * sends exactly that as the next message; voice answers can be read aloud again.
 */
import { useComputed } from '@preact/signals';
import { useLayoutEffect, useRef } from 'preact/hooks';
import { SpeakerIcon } from './chat-icons.js';
import { current } from './chat-state.js';
import type { ShownMessage } from './chat-types.js';
import { sendMessage } from './conversation-actions.js';
import { Markdown } from './markdown.js';
import { pure } from './pure.js';
import { StarterChips } from './starter-chips.js';
import { StreamingMarkdown } from './streaming-markdown.js';
import {
  answerApproval,
  connection,
  liveTurn,
  retryConnection,
  turnActive,
  undoReply,
} from './turn-runner.js';
import { canSpeak, speak } from './voice.js';

/** The text "Keep going" sends: the server's capped reply tells the person to say it. */
export const KEEP_GOING = 'Keep going';

interface Agent {
  name: string;
  emoji: string;
}

export function MessageList({ agent }: { agent: Agent }) {
  const { messages, loading } = current.value;
  const streaming = useComputed(() => liveTurn.value !== null).value;
  const busy = turnActive.value;
  const scroller = useRef<HTMLDivElement>(null);
  const content = useRef<HTMLOListElement>(null);
  const stuck = useRef(true);

  useLayoutEffect(() => {
    const s = scroller.current;
    const c = content.current;
    if (!s || !c) return;
    const onScroll = () => {
      stuck.current = s.scrollHeight - s.scrollTop - s.clientHeight < 48;
    };
    const ro = new ResizeObserver(() => {
      if (stuck.current) s.scrollTop = s.scrollHeight;
    });
    ro.observe(c);
    s.addEventListener('scroll', onScroll, { passive: true });
    return () => {
      ro.disconnect();
      s.removeEventListener('scroll', onScroll);
    };
  }, []);

  // a message just sent, or another conversation opened: go to the newest text
  const last = messages.at(-1);
  useLayoutEffect(() => {
    const s = scroller.current;
    if (!s || (last && last.role !== 'user' && messages.length > 1 && !loading)) return;
    stuck.current = true;
    s.scrollTop = s.scrollHeight;
  }, [last?.key, loading]);

  const lastIndex = messages.length - 1;
  return (
    <div class="chat-scroll" ref={scroller}>
      <ol class="chat-log" ref={content} aria-label="Messages">
        {loading && (
          <li class="chat-loading" role="status">
            <span class="spinner" aria-hidden="true" /> Loading the conversation…
          </li>
        )}
        {!loading && messages.length === 0 && !streaming && (
          <li class="chat-empty">
            <p class="chat-empty-emoji" aria-hidden="true">
              {agent.emoji}
            </p>
            <p>
              Ask {agent.name} about your cards, or tell it something to log:{' '}
              <q>I weighed 72.4 kg this morning</q>.
            </p>
            <StarterChips />
          </li>
        )}
        {messages.map((m, i) => (
          <MessageItem key={m.key} m={m} agent={agent} offerKeepGoing={i === lastIndex && !busy} />
        ))}
        {streaming && <LiveItem agent={agent} />}
      </ol>
    </div>
  );
}

const MessageItem = pure(function MessageItem({
  m,
  agent,
  offerKeepGoing,
}: {
  m: ShownMessage;
  agent: Agent;
  offerKeepGoing: boolean;
}) {
  if (m.role === 'user') {
    return (
      <li class="chat-msg chat-msg-user" data-role="user">
        <div class="chat-bubble">{m.content}</div>
        {m.refused && (
          <p class="chat-refused">Refused by the chat provider's content filter: not sent again.</p>
        )}
      </li>
    );
  }
  if (m.role === 'note') {
    return (
      <li
        class={`chat-msg chat-note chat-note-${m.tone ?? 'info'}`}
        data-role="note"
        role={m.tone === 'error' ? 'alert' : undefined}
      >
        {m.content}
      </li>
    );
  }
  const keepGoing = offerKeepGoing && (m.capped || m.timedOut);
  return (
    <li class="chat-msg chat-msg-assistant" data-role="assistant">
      <span class="chat-avatar" aria-hidden="true">
        {agent.emoji}
      </span>
      <div class="chat-bubble">
        <Markdown text={m.content} />
        {m.changeSet && (
          <p class="chat-change" data-change-set={m.changeSet.id}>
            <span>{m.undone ? `Undone: ${m.changeSet.summary}` : `Changed: ${m.changeSet.summary}`}</span>{' '}
            {!m.undone && (
              <button
                type="button"
                class="chat-link-btn chat-undo"
                onClick={() => {
                  const id = current.value.id;
                  if (id && m.changeSet) void undoReply(id, m.key, m.changeSet.id);
                }}
              >
                Undo
              </button>
            )}
          </p>
        )}
        {(keepGoing || (m.hasVoice && canSpeak())) && (
          <div class="chat-actions">
            {keepGoing && (
              <button type="button" class="chat-chip" onClick={() => void sendMessage(KEEP_GOING)}>
                {KEEP_GOING}
              </button>
            )}
            {m.hasVoice && canSpeak() && (
              <button
                type="button"
                class="chat-icon-btn chat-read-aloud"
                aria-label="Read aloud"
                onClick={(e) => {
                  const text =
                    m.speak ??
                    (e.currentTarget.closest('.chat-bubble')?.querySelector('.chat-md')?.textContent || '');
                  speak(text);
                }}
              >
                <SpeakerIcon />
              </button>
            )}
          </div>
        )}
      </div>
    </li>
  );
});

/** The answer being streamed: re-rendered once per frame at most (turn-runner.ts throttles). */
function LiveItem({ agent }: { agent: Agent }) {
  const live = liveTurn.value;
  const conn = connection.value;
  if (!live) return null;
  return (
    <li class="chat-msg chat-msg-assistant chat-msg-live" data-role="live">
      <span class="chat-avatar" aria-hidden="true">
        {agent.emoji}
      </span>
      <div class="chat-bubble">
        {live.text && (
          <div aria-hidden="true">
            <StreamingMarkdown text={live.text} />
          </div>
        )}
        {live.approval && (
          <fieldset class="chat-approval" aria-label="Approval needed">
            <p>{live.approval.summary}</p>
            <div class="chat-actions">
              <button
                type="button"
                class="chat-chip chat-approve"
                onClick={() => live.approval && void answerApproval(live.approval, true)}
              >
                Approve
              </button>
              <button
                type="button"
                class="chat-chip chat-decline"
                onClick={() => live.approval && void answerApproval(live.approval, false)}
              >
                Decline
              </button>
            </div>
          </fieldset>
        )}
        {conn === 'lost' ? (
          <p class="chat-status chat-status-lost" role="status">
            The connection was lost.{' '}
            <button type="button" class="chat-link-btn" onClick={retryConnection}>
              Try again
            </button>
          </p>
        ) : (
          (live.status || conn === 'reconnecting') && (
            <p class="chat-status" role="status">
              <span class="chat-dots" aria-hidden="true" />
              {conn === 'reconnecting' ? 'Reconnecting…' : live.status}
            </p>
          )
        )}
      </div>
    </li>
  );
}
