/**
 * The legacy single chat transcript, `HEALTH_HOME/chat/history.json` (docs/API.md
 * `/api/chat/history`): GET/PUT/DELETE keep working for older clients, and the file is folded
 * into a conversation once (the new widget asks for that on first load).
 * PUT keeps only user/assistant messages with string content (and their followupText,
 * embellishments, hasVoice), the newest 200, and refuses more than 512 KB (413).
 */
import fs from 'node:fs';
import path from 'node:path';
import { badRequest, payloadTooLarge } from '../../errors.js';
import { writeFileAtomic } from '../../home/atomic-write.js';
import { MAX_CONVERSATION_MESSAGES, MAX_CONVERSATION_WRITE_BYTES } from '../../limits.js';
import type { ConversationStore } from './conversation-store.js';

/** A legacy transcript message. */
export interface LegacyMessage {
  role: 'user' | 'assistant';
  content: string;
  followupText?: string;
  embellishments?: { label: string; prompt: string }[];
  hasVoice?: boolean;
}

/** Keeps what the legacy format keeps: user/assistant messages with string content and the known extras. */
export function filterLegacy(messages: unknown[]): LegacyMessage[] {
  const out: LegacyMessage[] = [];
  for (const m of messages) {
    const r = m as Record<string, unknown> | null;
    if (!r || (r.role !== 'user' && r.role !== 'assistant') || typeof r.content !== 'string') continue;
    const msg: LegacyMessage = { role: r.role, content: r.content };
    if (typeof r.followupText === 'string') msg.followupText = r.followupText;
    if (Array.isArray(r.embellishments))
      msg.embellishments = r.embellishments as LegacyMessage['embellishments'];
    if (typeof r.hasVoice === 'boolean') msg.hasVoice = r.hasVoice;
    out.push(msg);
  }
  return out.slice(-MAX_CONVERSATION_MESSAGES);
}

/** Read, write and clear the legacy file of a home. */
export function legacyHistory(home: string) {
  const file = path.join(home, 'chat', 'history.json');
  return {
    file,
    /** The stored messages ([] when there is no file or it is unreadable). */
    read(): LegacyMessage[] {
      try {
        const parsed = JSON.parse(fs.readFileSync(file, 'utf8'));
        return filterLegacy(
          Array.isArray(parsed) ? parsed : Array.isArray(parsed?.messages) ? parsed.messages : [],
        );
      } catch {
        return [];
      }
    },
    /** Replaces the transcript. @throws 400 not an array, 413 over 512 KB. */
    write(messages: unknown): LegacyMessage[] {
      if (!Array.isArray(messages))
        throw badRequest('messages must be an array', [{ path: 'messages', message: 'must be an array' }]);
      if (Buffer.byteLength(JSON.stringify(messages)) > MAX_CONVERSATION_WRITE_BYTES) {
        throw payloadTooLarge(`the transcript is larger than ${MAX_CONVERSATION_WRITE_BYTES / 1024} KB`);
      }
      const kept = filterLegacy(messages);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      writeFileAtomic(file, `${JSON.stringify({ messages: kept }, null, 2)}\n`, 0o600);
      return kept;
    },
    /** Removes the file. */
    clear(): void {
      fs.rmSync(file, { force: true });
    },
  };
}

/**
 * Folds a non-empty legacy transcript into a new conversation (titled "Earlier chat") and
 * removes the file, so it happens once. @returns `{conversationId}` (null when there was nothing).
 */
export function foldLegacyHistory(legacy: ReturnType<typeof legacyHistory>, store: ConversationStore) {
  const messages = legacy.read();
  if (messages.length === 0) {
    legacy.clear();
    return { conversationId: null };
  }
  const conv = store.create({ title: 'Earlier chat', messages });
  legacy.clear();
  return { conversationId: conv.id };
}
