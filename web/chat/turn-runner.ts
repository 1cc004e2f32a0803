/**
 * Runs and watches the turn of the conversation shown (docs/API.md "Conversation turns",
 * "Reattach to a turn", "Stop a turn"):
 * - `sendMessage` posts a streamed conversation turn and reads its events;
 * - every event goes through a TurnState, which drops what was already applied, so a replay that
 *   overlaps what was shown adds nothing twice;
 * - the text shown is updated at most once per animation frame (and the turn saved to
 *   sessionStorage at the same time, text and last event id together);
 * - a connection that drops before `done`, a tab coming back to the foreground, and the network
 *   coming back all reattach with `GET /api/chat/turn/:conversationId` and `Last-Event-ID`; a 204
 *   there reloads the conversation from the server, where any finished answer is already saved;
 * - `stopTurn` asks the server to stop (`DELETE`); the stream then ends with `stopped`.
 */
import { batch, effect, signal } from '@preact/signals';
import { overLimit } from '../../src/common/graphemes.js';
import { onSignedOut } from '../auth/session-expiry.js';
import { ApiError, api } from '../lib/api.js';
import { cardsVersion } from '../lib/live.js';
import {
  appendShown,
  configured,
  conversations,
  current,
  draft,
  nextKey,
  notice,
  retitle,
  showConversation,
} from './chat-state.js';
import { storeTurn, type TurnSnapshot } from './chat-storage.js';
import { type ApprovalAsk, MAX_MESSAGE_CHARS, type TurnEvent } from './chat-types.js';
import { cardLabels, getConversation, listConversations } from './conversation-api.js';
import { readTurnStream } from './event-stream.js';
import { chatBusy } from './launcher-state.js';
import { statusLine } from './status-line.js';
import { type HeldTool, holdEndsAt, holdTool, labelsLearned, shownPhase } from './tool-status-hold.js';
import { TurnState } from './turn-state.js';
import { speak } from './voice.js';

/** The streaming answer as shown: null when no answer is being streamed. */
export interface LiveTurn {
  conversationId: string;
  text: string;
  /** "Thinking…", "Updating Weight…"; null once the answer is settled. */
  status: string | null;
  /** A destructive tool call waiting for Approve or Decline. */
  approval: ApprovalAsk | null;
}

export const liveTurn = signal<LiveTurn | null>(null);

/** A turn is running in the conversation shown (the send button is a stop button). */
export const turnActive = signal(false);

/** Stop was asked and the turn has not ended yet. */
export const stopping = signal(false);

/** The event stream's health: 'reconnecting' while reattaching, 'lost' after the retries ran out. */
export const connection = signal<'ok' | 'reconnecting' | 'lost'>('ok');

/** How often the turn in flight is saved for a reload (and always when the tab is hidden or left). */
const SAVE_EVERY_MS = 500;
const MAX_RETRIES = 8;
const RETRY_BASE_MS = 500;
const RETRY_MAX_MS = 8_000;

let turn: TurnState | null = null;
let conn: AbortController | null = null;
let frame = 0;
let savedAt = 0;
/** The last tool status, held on screen a moment (tool-status-hold.ts). */
let lastTool: HeldTool | null = null;
let toolTimer: ReturnType<typeof setTimeout> | undefined;
let retries = 0;
let retryTimer: ReturnType<typeof setTimeout> | undefined;
/** The last event id seen per conversation: the next turn's events are above it. */
const lastIds = new Map<string, number>();

let labels = new Map<string, string>();
/** Cards whose label is being fetched now (one request at a time per card). */
const labelsAsked = new Set<string>();
/** How long to wait before asking again for a card not found yet (it may be being created). */
const LABEL_RETRY_MS = 700;

function labelOf(id: string): string | undefined {
  return labels.get(id);
}

/**
 * Card labels for the status line, fetched again when a card not yet known is named. A card the
 * turn is still creating is not there at the first ask: while the status still names it, asked
 * again shortly after, so the line moves from the id to the label once the card exists.
 */
function learnLabel(id: string, tries = 6): void {
  if (labels.has(id) || labelsAsked.has(id)) return;
  labelsAsked.add(id);
  cardLabels().then(
    (m) => {
      setLabels(m);
      labelsAsked.delete(id);
      if (!m.has(id) && tries > 1) {
        setTimeout(() => {
          if (turn && lastTool?.phase.id === id) learnLabel(id, tries - 1);
        }, LABEL_RETRY_MS);
      }
    },
    () => {
      labelsAsked.delete(id);
    },
  );
}

const knownLabel = (id: string) => labels.has(id);

/** Takes fresh card labels; a held tool line whose card just became known stays up named by its label. */
function setLabels(m: Map<string, string>): void {
  labels = m;
  if (lastTool && turn) holdToolLine(labelsLearned(lastTool, performance.now(), knownLabel));
  scheduleFlush();
}

/** Holds `held` on screen, and looks again when its hold ends. */
function holdToolLine(held: HeldTool): void {
  if (held === lastTool) return;
  lastTool = held;
  armToolTimer();
}

/**
 * Shows the line again once the held tool's hold has ended. A timer can fire a fraction of a
 * millisecond before its time by performance.now(); it then waits again rather than leave the
 * tool's line up until the next event.
 */
function armToolTimer(): void {
  clearTimeout(toolTimer);
  const wait = lastTool ? holdEndsAt(lastTool) - performance.now() : 0;
  if (wait > 0) toolTimer = setTimeout(armToolTimer, wait + 1);
  else scheduleFlush();
}

/** Saves the turn for a reload: text and last event id together, so any saved state is consistent. */
function save(t: TurnState): void {
  savedAt = performance.now();
  storeTurn(t.snapshot());
}

/** Shows the turn's current text and status, and saves it for a reload (now, or every SAVE_EVERY_MS). */
function flush(force = false): void {
  if (frame) cancelAnimationFrame(frame);
  frame = 0;
  const t = turn;
  if (!t || t.outcome) return;
  // a tool that just ran is still named for a moment; while the answer's words stream in, they
  // say enough by themselves
  let phase = shownPhase(t.phase, lastTool, performance.now());
  if (phase && t.text !== '' && phase.phase !== 'tool') phase = null;
  liveTurn.value = {
    conversationId: t.conversationId,
    text: t.text,
    status: t.approval ? 'Waiting for your answer…' : phase ? statusLine(phase, labelOf) : null,
    approval: t.approval,
  };
  if (force || performance.now() - savedAt >= SAVE_EVERY_MS) save(t);
}

function scheduleFlush(): void {
  if (!frame) frame = requestAnimationFrame(() => flush());
}

/** Stops following the card list (set once following starts). */
let labelsFollowed: (() => void) | null = null;

/**
 * Re-reads the card labels whenever the live feed says the card list changed while a turn runs:
 * a card the agent just created is then known by its label before the next status names it,
 * instead of a moment after (on a slow machine, after the status has moved on).
 */
function followLabels(): void {
  if (labelsFollowed) return;
  let seen = cardsVersion.peek();
  labelsFollowed = effect(() => {
    const v = cardsVersion.value;
    if (v === seen || !turn) return;
    seen = v;
    cardLabels().then(
      (m) => setLabels(m),
      () => {},
    );
  });
}

function begin(t: TurnState, showAtOnce: boolean): void {
  followLabels();
  turn = t;
  retries = 0;
  lastTool = null;
  batch(() => {
    turnActive.value = true;
    chatBusy.value = true;
    stopping.value = false;
    connection.value = 'ok';
    liveTurn.value = showAtOnce
      ? { conversationId: t.conversationId, text: t.text, status: 'Thinking…', approval: null }
      : null;
  });
  save(t);
}

/** Ends watching `t`: clears the live state and the saved snapshot; reloads the conversation when asked. */
function finish(t: TurnState, opts: { reload?: boolean } = {}): void {
  if (turn !== t) return;
  if (frame) cancelAnimationFrame(frame);
  frame = 0;
  clearTimeout(retryTimer);
  conn?.abort();
  conn = null;
  turn = null;
  if (t.lastEventId !== undefined) lastIds.set(t.conversationId, t.lastEventId);
  storeTurn(null);
  batch(() => {
    liveTurn.value = null;
    turnActive.value = false;
    chatBusy.value = false;
    stopping.value = false;
    connection.value = 'ok';
  });
  if (opts.reload || (t.done && !t.outcome)) void reloadShown(t);
  if (t.outcome?.kind === 'reply') pickUpTitle(t.conversationId);
}

/** The most messages a conversation keeps (docs/API.md "Conversations"). */
const MAX_STORED_MESSAGES = 200;

/**
 * Replaces the messages shown with the server's copy of `t`'s conversation. When the server holds
 * no more messages than before `t`'s message was sent, that message never arrived: it goes back
 * into the composer.
 */
async function reloadShown(t: TurnState): Promise<void> {
  const conversationId = t.conversationId;
  try {
    const conv = await getConversation(conversationId);
    if (current.value.id !== conversationId || turn) return;
    showConversation(conv);
    const sent = t.sentText;
    const n = conv.messages.length;
    const lost = sent !== undefined && n <= t.storedBefore && n < MAX_STORED_MESSAGES;
    if (lost && !draft.value.trim()) {
      draft.value = sent;
      notice.value =
        'Your message did not reach Klebb. It is back in the box below: send it again when you are online.';
    }
  } catch {
    // the conversation was deleted meanwhile; what is shown stays
  }
}

/** A new conversation is named after its first answer, by a side call: look for the name a little later. */
function pickUpTitle(conversationId: string): void {
  if (current.value.id !== conversationId || current.value.title) return;
  for (const ms of [1_500, 5_000]) {
    setTimeout(async () => {
      if (current.value.id !== conversationId || current.value.title) return;
      try {
        const list = await listConversations();
        conversations.value = list;
        const found = list.find((c) => c.id === conversationId);
        if (found?.title) retitle(conversationId, found.title);
      } catch {
        // the drawer loads the list again when opened
      }
    }, ms);
  }
}

/** Settles the answer: the live bubble becomes a message (or a note) of the conversation. */
function settle(t: TurnState): void {
  if (frame) cancelAnimationFrame(frame);
  frame = 0;
  const o = t.outcome;
  if (!o) return;
  batch(() => {
    liveTurn.value = null;
    if (o.kind === 'reply') {
      const p = o.payload;
      appendShown(t.conversationId, {
        key: nextKey(),
        role: 'assistant',
        content: typeof p.reply === 'string' ? p.reply : '',
        capped: p.capped === true,
        timedOut: p.timedOut === true,
        hasVoice: t.voice,
        speak: typeof p.speak === 'string' ? p.speak : undefined,
        changeSet: p.changeSet,
      });
    } else if (o.kind === 'error') {
      appendShown(t.conversationId, { key: nextKey(), role: 'note', tone: 'error', content: o.message });
    } else {
      appendShown(t.conversationId, {
        key: nextKey(),
        role: 'note',
        tone: 'info',
        content: 'Stopped. No answer was saved for this message.',
      });
    }
  });
  if (o.kind === 'reply' && t.voice && typeof o.payload.speak === 'string') speak(o.payload.speak);
}

function onEvent(t: TurnState, e: TurnEvent): void {
  if (!t.apply(e)) return;
  retries = 0;
  if (connection.value !== 'ok') connection.value = 'ok';
  switch (e.type) {
    case 'status':
      if (e.data.phase === 'tool') {
        holdToolLine(holdTool(e.data, performance.now(), knownLabel));
        if (e.data.id) learnLabel(e.data.id);
      }
      scheduleFlush();
      break;
    case 'token':
    case 'reset':
    case 'approval':
    case 'approval-resolved':
      scheduleFlush();
      break;
    case 'reply':
    case 'error':
    case 'stopped':
      settle(t);
      break;
    case 'done':
      break;
  }
}

/** Reads one connection's events into `t`; decides what follows when it ends. */
async function connect(t: TurnState, open: (signal: AbortSignal) => Promise<Response>): Promise<void> {
  conn?.abort();
  clearTimeout(retryTimer);
  const ctl = new AbortController();
  conn = ctl;
  const outcome = await readTurnStream(
    open(ctl.signal),
    (e) => {
      if (conn === ctl && turn === t) onEvent(t, e);
    },
    ctl.signal,
  );
  if (conn !== ctl || turn !== t) return; // replaced by a newer connection, or no longer watched
  conn = null;
  switch (outcome.kind) {
    case 'done':
      finish(t);
      return;
    case 'none':
      // nothing running or lingering: the conversation holds the outcome
      finish(t, { reload: liveTurn.value !== null || t.lastEventId !== undefined });
      return;
    case 'dropped':
      scheduleReattach(t);
      return;
    case 'refused':
      if (outcome.status >= 500 && outcome.code !== 'CHAT_NOT_CONFIGURED') {
        scheduleReattach(t);
        return;
      }
      if (outcome.status === 409 && outcome.code === 'TURN_RUNNING' && t.sentText !== undefined) {
        // a message whose request was cut and sent again: its turn is already running at the
        // server (the first request got through), so watch that turn and show its reply
        scheduleReattach(t);
        return;
      }
      if (outcome.code === 'CHAT_NOT_CONFIGURED') configured.value = false;
      if ((outcome.status === 400 || outcome.status === 401) && t.sentText) {
        // the message was refused, not lost: it goes back into the composer to be shortened or
        // fixed, or (the session ended) sent again after the sign-in, which it is kept across
        putBack(t.conversationId, t.sentText);
      }
      if (outcome.status === 401) onSignedOut();
      appendShown(t.conversationId, {
        key: nextKey(),
        role: 'note',
        tone: 'error',
        content: outcome.status === 400 ? refusedCopy(t.sentText ?? '') : outcome.message,
      });
      finish(t);
      return;
    case 'aborted':
      return;
  }
}

/** The plain sentence shown when the server refuses a message (400). */
function refusedCopy(text: string): string {
  const over = overLimit(text, MAX_MESSAGE_CHARS);
  if (over !== null) {
    const has =
      over === 'too long'
        ? 'it is far over the limit of'
        : `it has ${over.toLocaleString()} characters and the limit is`;
    return `That message is too long to send: ${has} ${MAX_MESSAGE_CHARS.toLocaleString()}. It is back in the box below; shorten it and send again.`;
  }
  return 'That message could not be sent. It is back in the box below; change it and try again.';
}

/** Takes the refused message `text` out of the transcript and puts it back in the composer. */
function putBack(conversationId: string, text: string): void {
  const c = current.value;
  if (c.id === conversationId) {
    let at = c.messages.length - 1;
    while (at >= 0 && !(c.messages[at]?.role === 'user' && c.messages[at]?.content === text)) at -= 1;
    if (at >= 0) current.value = { ...c, messages: c.messages.filter((_, i) => i !== at) };
  }
  if (!draft.value.trim()) draft.value = text;
}

/** Reattaches to `t` after the last event applied. */
function reattach(t: TurnState): void {
  if (turn !== t) return;
  const headers: Record<string, string> = { accept: 'text/event-stream' };
  if (t.lastEventId !== undefined) headers['last-event-id'] = String(t.lastEventId);
  void connect(t, (signal) =>
    fetch(`/api/chat/turn/${encodeURIComponent(t.conversationId)}`, {
      headers,
      signal,
      credentials: 'same-origin',
      cache: 'no-store',
    }),
  );
}

/** Reattaches soon: at once the first time, then backing off; waits while the tab is hidden. */
function scheduleReattach(t: TurnState): void {
  clearTimeout(retryTimer);
  if (document.visibilityState === 'hidden') {
    connection.value = 'reconnecting'; // the tab coming back reattaches
    return;
  }
  if (retries >= MAX_RETRIES) {
    connection.value = 'lost';
    return;
  }
  const delay = retries === 0 ? 0 : Math.min(RETRY_MAX_MS, RETRY_BASE_MS * 2 ** (retries - 1));
  retries += 1;
  if (retries > 1) connection.value = 'reconnecting';
  retryTimer = setTimeout(() => reattach(t), delay);
}

/**
 * Sends `text` as the next turn of the conversation `conversationId` (streamed), with the card
 * in focus and voice mode. The user's message is shown at once.
 */
export function sendTurn(
  conversationId: string,
  text: string,
  opts: { voice?: boolean; viewedCardId?: string | null } = {},
): void {
  if (turn) return;
  const t = new TurnState(conversationId, opts.voice === true);
  t.sentText = text;
  t.storedBefore = current.value.messages.filter((m) => m.role !== 'note').length;
  // events of earlier turns have lower ids: a replay of one of them adds nothing to this turn
  t.lastEventId = lastIds.get(conversationId);
  appendShown(conversationId, { key: nextKey(), role: 'user', content: text });
  begin(t, true);
  const body = {
    stream: true,
    conversationId,
    messages: [{ role: 'user', content: text }],
    voiceMode: opts.voice === true,
    viewedCardId: opts.viewedCardId ?? null,
  };
  void connect(t, (signal) =>
    fetch('/api/chat', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify(body),
      signal,
      credentials: 'same-origin',
    }),
  );
}

/**
 * Watches the turn running in `conversationId` (its last stored message is the user's): after a
 * reload from `resume` (the text shown and the last event id), else its whole replay. Nothing is
 * shown until an event arrives; 204 (no turn) ends quietly.
 */
export function attachTurn(conversationId: string, resume?: TurnSnapshot): void {
  detachTurn();
  const resumed = resume?.conversationId === conversationId;
  const t = resumed ? TurnState.restore(resume) : new TurnState(conversationId, false);
  // a turn of this conversation already watched to its end here is not shown again
  if (!resumed) t.lastEventId = lastIds.get(conversationId);
  begin(t, resumed);
  reattach(t);
}

/** Stops watching (another conversation is shown); the turn itself runs on at the server. */
export function detachTurn(): void {
  const t = turn;
  if (!t) return;
  if (frame) cancelAnimationFrame(frame);
  frame = 0;
  clearTimeout(retryTimer);
  conn?.abort();
  conn = null;
  turn = null;
  storeTurn(null);
  batch(() => {
    liveTurn.value = null;
    turnActive.value = false;
    chatBusy.value = false;
    stopping.value = false;
    connection.value = 'ok';
  });
}

/** Asks the server to stop the running turn; its stream then ends with `stopped` and `done`. */
export async function stopTurn(): Promise<void> {
  const t = turn;
  if (!t || stopping.value) return;
  stopping.value = true;
  const url = `/api/chat/turn/${encodeURIComponent(t.conversationId)}`;
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      await api(url, { method: 'DELETE' });
      return;
    } catch (err) {
      // 404: not running (yet, or any more). Before the first event the turn may not be registered
      // yet: try once more; after it, the stream brings the end.
      if (!(err instanceof ApiError) || err.status !== 404 || turn !== t || t.lastEventId !== undefined)
        break;
      await new Promise((r) => setTimeout(r, 300));
    }
  }
  if (turn === t) stopping.value = false;
}

/** After the retries ran out: try again now. */
export function retryConnection(): void {
  if (!turn) return;
  retries = 0;
  connection.value = 'reconnecting';
  reattach(turn);
}

let watching = false;

/** Reattaches when the tab comes back and when the network returns; saves the turn when hidden. */
export function startTurnWatch(): void {
  if (watching) return;
  watching = true;
  document.addEventListener('visibilitychange', () => {
    if (!turn) return;
    if (document.visibilityState === 'hidden') {
      flush(true);
      return;
    }
    retries = 0;
    reattach(turn);
  });
  window.addEventListener('pagehide', () => {
    if (turn) flush(true);
  });
  window.addEventListener('online', () => {
    if (turn && !conn) {
      retries = 0;
      reattach(turn);
    }
  });
}

/**
 * Answers the approval the running turn waits for (`POST /api/chat/approvals/:id`); the turn goes
 * on by itself. A refusal (answered elsewhere, expired) is shown as a notice.
 */
export async function answerApproval(ask: ApprovalAsk, approve: boolean): Promise<void> {
  try {
    await api(`/api/chat/approvals/${encodeURIComponent(ask.id)}`, {
      method: 'POST',
      json: {
        decision: approve ? 'approve' : 'decline',
        digest: ask.digest,
        conversationId: ask.conversationId,
      },
    });
  } catch (err) {
    notice.value = err instanceof ApiError ? err.message : 'The answer did not reach Klebb.';
  }
}

/** Undoes a reply's change set (`POST /api/changes/:id/undo`); marks the message undone, or says why not. */
export async function undoReply(conversationId: string, key: string, changeSetId: number): Promise<void> {
  try {
    await api(`/api/changes/${changeSetId}/undo`, { method: 'POST' });
    const c = current.value;
    if (c.id === conversationId) {
      current.value = { ...c, messages: c.messages.map((m) => (m.key === key ? { ...m, undone: true } : m)) };
    }
  } catch (err) {
    notice.value = err instanceof ApiError ? err.message : 'The undo did not reach Klebb.';
  }
}
