/**
 * A chat turn on a stored conversation (seed "Conversations" and "Detached turns"):
 * 1. the conversation's lock is taken (409 when a turn runs, before anything is stored);
 * 2. the request's messages (the new turn only) are stored before the loop runs;
 * 3. the loop reads a window of the newest stored messages within WINDOW_CHARS;
 * 4. the reply is stored before its `reply` event goes out, whether or not a client listens;
 * 5. an untitled conversation gets a title from a side call afterwards (never blocking).
 * A stopped or failed turn stores no reply; the user's message stays (marked `refused`, and left
 * out of later requests, when the provider's content filter refused it).
 */

import { lazyImport } from '../../lazy-module.js';
import { WINDOW_CHARS } from '../../limits.js';
import type { TurnEvent, TurnResult } from '../agent/turn-events.js';
import type { ChatRequest } from '../chat-request.js';
import type { ChatService } from '../chat-service.js';
import {
  type ConversationStore,
  checkMessages,
  type MessageExtra,
} from '../conversations/conversation-store.js';
import type { ChatMessage } from '../gateway/types.js';
import type { HubTurn, TurnHub } from './turn-hub.js';

/** What a conversation turn needs. */
export interface ConversationTurnDeps {
  chat: ChatService;
  conversations: ConversationStore;
  turns: TurnHub;
}

/**
 * Starts the turn in the background and returns the hub's turn plus a promise of its result.
 * @throws 404 unknown conversation, 409 a turn already running (nothing stored in either case).
 */
export function startConversationTurn(
  deps: ConversationTurnDeps,
  req: ChatRequest & { conversationId: string },
): { turn: HubTurn; result: Promise<TurnResult | undefined> } {
  const { chat, conversations, turns } = deps;
  const id = req.conversationId;
  conversations.assertExists(id);
  // the same 512 KB cap as every other write of messages (413)
  // a message the client marked refused is stored with the mark (window() leaves it out)
  const incoming = checkMessages(req.messages);
  let settle: (r: TurnResult | undefined) => void = () => {};
  const result = new Promise<TurnResult | undefined>((r) => {
    settle = r;
  });
  // lock check, storing the message and claiming the lock happen in one synchronous run, so no
  // other request can slip in between (and a 409 stores nothing)
  turns.assertFree(id);
  conversations.append(id, incoming);
  const turn = turns.start(id, async (emit, signal) => {
    let outcome: TurnResult | undefined;
    try {
      const window: ChatMessage[] = conversations
        .window(id, WINDOW_CHARS)
        .map((m) =>
          m.role === 'user'
            ? { role: 'user', content: m.content }
            : { role: 'assistant', content: m.content },
        );
      const persistingEmit = (e: TurnEvent) => {
        if (e.type === 'reply') {
          const extra: MessageExtra = {};
          if (req.voiceMode) extra.hasVoice = true;
          if (e.data.capped) extra.capped = true;
          if (e.data.timedOut) extra.timedOut = true;
          if (e.data.followup) extra.followupText = e.data.followup;
          if (e.data.changeSet) extra.changeSet = e.data.changeSet;
          conversations.append(id, [{ role: 'assistant', content: e.data.reply, ...extra }]);
        }
        emit(e);
      };
      outcome = await chat.run({ ...req, messages: window }, persistingEmit, signal);
      // left in the transcript, but out of every later request: they would be refused again
      if (outcome?.refusedMessage) conversations.markRefused(id, incoming.length);
    } finally {
      settle(outcome);
    }
    if (outcome?.payload) void titleIfUntitled(deps, id);
  });
  return { turn, result };
}

/** The title maker (and with it the gateway client), loaded when a first exchange is titled. */
const titleModule = lazyImport(() => import('../conversations/title.js'));

/** Names an untitled conversation from its first exchange; failures are silent (retried next turn). */
async function titleIfUntitled(deps: ConversationTurnDeps, id: string): Promise<void> {
  if (deps.conversations.titleOf(id) !== null) return;
  const conv = deps.conversations.get(id);
  if (!conv || conv.title) return;
  // a message the content filter refused is never sent again, not even to name the topic: the
  // title would be refused too (and asked again after every turn)
  const at = conv.messages.findIndex((m) => m.role === 'user' && !m.refused);
  const firstUser = conv.messages[at];
  const firstReply = conv.messages.slice(at + 1).find((m) => m.role === 'assistant');
  if (!firstUser || !firstReply) return;
  const { generateTitle } = await titleModule();
  const title = await generateTitle(deps.chat.gatewayBase(), firstUser.content, firstReply.content);
  if (title && deps.conversations.has(id) && !deps.conversations.get(id)?.title)
    deps.conversations.rename(id, title);
}
