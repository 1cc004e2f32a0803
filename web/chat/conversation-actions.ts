/**
 * What the panel does with conversations: start up (status, the one-time legacy import,
 * reopening the last conversation and any turn a reload interrupted), open one, start a new one,
 * send a message (creating the conversation on the first), rename, delete, list.
 */
import { ApiError } from '../lib/api.js';
import { cardInFocus, startCardFocus } from './card-focus.js';
import { configured, conversations, current, notice, retitle, showConversation } from './chat-state.js';
import {
  legacyFolded,
  markLegacyFolded,
  storeConversationId,
  storedConversationId,
  storedTurn,
  storeTurn,
  type TurnSnapshot,
} from './chat-storage.js';
import {
  chatConfigured,
  createConversation,
  deleteConversation as deleteOnServer,
  foldLegacyHistory,
  getConversation,
  listConversations,
  renameConversation as renameOnServer,
} from './conversation-api.js';
import { attachTurn, detachTurn, sendTurn, startTurnWatch, turnActive } from './turn-runner.js';

let started: Promise<void> | null = null;

/** Starts the chat once per page: see the file comment. */
export function startChat(): Promise<void> {
  started ??= boot();
  return started;
}

async function boot(): Promise<void> {
  startTurnWatch();
  startCardFocus();
  chatConfigured().then(
    (v) => {
      configured.value = v;
    },
    () => {
      configured.value = true; // unknown: a message will say what is wrong
    },
  );
  let folded: string | null = null;
  if (!legacyFolded()) {
    try {
      folded = await foldLegacyHistory();
      markLegacyFolded();
    } catch {
      // tried again on the next load
    }
  }
  const resume = storedTurn();
  const id = resume?.conversationId ?? storedConversationId() ?? folded;
  if (id) await openConversation(id, resume ?? undefined);
}

/**
 * Shows conversation `id`. When its last message is the user's, a turn may be running or have
 * just ended: watch it (from `resume` after a reload, else from its start).
 */
export async function openConversation(id: string, resume?: TurnSnapshot): Promise<void> {
  detachTurn();
  notice.value = null;
  const known = conversations.value?.find((c) => c.id === id);
  current.value = { id, title: known?.title ?? null, messages: [], loading: true };
  storeConversationId(id);
  try {
    const conv = await getConversation(id);
    if (current.value.id !== id) return;
    showConversation(conv);
    if (conv.messages.at(-1)?.role === 'user') attachTurn(id, resume);
    else if (resume) storeTurn(null);
  } catch (err) {
    if (current.value.id !== id) return;
    if (err instanceof ApiError && err.status === 404) {
      storeTurn(null);
      newConversation();
      return;
    }
    current.value = { ...current.value, loading: false };
    notice.value = (err as Error).message;
  }
}

/** Shows an empty conversation; it is created on the server with the first message. */
export function newConversation(): void {
  detachTurn();
  notice.value = null;
  current.value = { id: null, title: null, messages: [], loading: false };
  storeConversationId(null);
}

/**
 * Sends `text` as the next message of the conversation shown (creating it first when new).
 * @returns false when nothing was sent (a turn is running, or the conversation could not be made).
 */
export async function sendMessage(text: string, opts: { voice?: boolean } = {}): Promise<boolean> {
  const body = text.trim();
  if (!body || turnActive.value) return false;
  let id = current.value.id;
  if (!id) {
    try {
      const conv = await createConversation();
      if (current.value.id !== null) return false;
      id = conv.id;
      current.value = { ...current.value, id, title: conv.title };
      storeConversationId(id);
    } catch (err) {
      notice.value = (err as Error).message;
      return false;
    }
  }
  notice.value = null;
  sendTurn(id, body, { voice: opts.voice, viewedCardId: cardInFocus() });
  return true;
}

/** Reloads the drawer's list. */
export async function refreshConversations(): Promise<void> {
  try {
    conversations.value = await listConversations();
  } catch (err) {
    notice.value = (err as Error).message;
  }
}

/** Renames a conversation (blank clears the title). @returns whether it worked. */
export async function renameConversation(id: string, title: string): Promise<boolean> {
  try {
    const conv = await renameOnServer(id, title);
    retitle(id, conv.title);
    return true;
  } catch (err) {
    notice.value = (err as Error).message;
    return false;
  }
}

/** Deletes a conversation; when it is the one shown, an empty one takes its place. */
export async function deleteConversation(id: string): Promise<boolean> {
  try {
    await deleteOnServer(id);
  } catch (err) {
    if (!(err instanceof ApiError && err.status === 404)) {
      notice.value = (err as Error).message;
      return false;
    }
  }
  if (current.value.id === id) newConversation();
  if (conversations.value) conversations.value = conversations.value.filter((c) => c.id !== id);
  return true;
}
