/**
 * Named chat transcripts in the instance database, one store row per message (seed
 * "Conversations"). Caps: 100 conversations (the least recently active are pruned) and
 * 200 messages each (the oldest are dropped). All methods are synchronous and each write is one
 * transaction.
 */
import { randomUUID } from 'node:crypto';
import { foldCase, unfoldedSpan } from '../../common/case-fold.js';
import type { ConversationSummary, SearchHit } from '../../common/conversation-types.js';
import { headGraphemes, overGraphemes, splitGraphemes } from '../../common/graphemes.js';
import { oneLineTitle } from '../../common/title-text.js';
import { badRequest, notFound, payloadTooLarge } from '../../errors.js';
import {
  MAX_CONVERSATION_MESSAGES,
  MAX_CONVERSATION_TITLE_CHARS,
  MAX_CONVERSATION_WRITE_BYTES,
  MAX_CONVERSATIONS,
} from '../../limits.js';
import { type Db, writeTransaction } from '../../store/database.js';

/** Extra fields an assistant message may carry (persisted with the reply). */
export interface MessageExtra {
  hasVoice?: boolean;
  capped?: boolean;
  timedOut?: boolean;
  followupText?: string;
  embellishments?: { label: string; prompt: string }[];
  /** What the turn changed: its change set, which the panel offers to undo. */
  changeSet?: { id: number; summary: string };
  /**
   * A message the provider's content filter refused: kept in the transcript for the person, but
   * never sent to the model again (every later message of the conversation would be refused too).
   */
  refused?: boolean;
}

/** One stored message. `createdAt` is an ISO time. */
export type StoredMessage = { role: 'user' | 'assistant'; content: string; createdAt: string } & MessageExtra;

/** A whole conversation. */
export interface Conversation extends ConversationSummary {
  messages: StoredMessage[];
}

/** Longest search needle, characters (a longer one is a 400, never a regex stack overflow). */
export const MAX_SEARCH_CHARS = 500;

const EXTRA_KEYS = [
  'hasVoice',
  'capped',
  'timedOut',
  'followupText',
  'embellishments',
  'changeSet',
  'refused',
] as const;
type ExtraKey = (typeof EXTRA_KEYS)[number];
const isBool = (v: unknown) => typeof v === 'boolean';
const EXTRA_CHECK: Record<ExtraKey, (v: unknown) => boolean> = {
  hasVoice: isBool,
  capped: isBool,
  timedOut: isBool,
  followupText: (v) => typeof v === 'string',
  embellishments: (v) =>
    Array.isArray(v) &&
    v.every((e) => e && typeof e === 'object' && typeof e.label === 'string' && typeof e.prompt === 'string'),
  changeSet: (v) =>
    v !== null &&
    typeof v === 'object' &&
    Number.isSafeInteger((v as { id?: unknown }).id) &&
    typeof (v as { summary?: unknown }).summary === 'string',
  refused: isBool,
};
const EXTRA_EXPECT: Record<ExtraKey, string> = {
  hasVoice: 'must be true or false',
  capped: 'must be true or false',
  timedOut: 'must be true or false',
  followupText: 'must be a string',
  embellishments: 'must be an array of {label, prompt} strings',
  changeSet: 'must be {id: number, summary: string}',
  refused: 'must be true or false',
};

/**
 * Checks messages from a client: an array of `{role: user|assistant, content: string}` with the
 * known extras passed through; other keys are dropped.
 * @throws 400 naming the bad field; 413 when the messages are over 512 KB as JSON.
 */
export function checkMessages(input: unknown, field = 'messages'): Omit<StoredMessage, 'createdAt'>[] {
  if (!Array.isArray(input))
    throw badRequest(`${field} must be an array`, [{ path: field, message: 'must be an array' }]);
  if (Buffer.byteLength(JSON.stringify(input)) > MAX_CONVERSATION_WRITE_BYTES) {
    throw payloadTooLarge(`${field} is larger than ${MAX_CONVERSATION_WRITE_BYTES / 1024} KB`);
  }
  return input.map((m, i) => {
    const msg = m as Record<string, unknown> | null;
    if (!msg || typeof msg !== 'object' || (msg.role !== 'user' && msg.role !== 'assistant')) {
      throw badRequest(`${field}[${i}].role must be "user" or "assistant"`, [
        { path: `${field}[${i}].role`, message: 'must be user or assistant' },
      ]);
    }
    if (typeof msg.content !== 'string') {
      throw badRequest(`${field}[${i}].content must be a string`, [
        { path: `${field}[${i}].content`, message: 'must be a string' },
      ]);
    }
    const out: Omit<StoredMessage, 'createdAt'> = { role: msg.role, content: msg.content };
    for (const k of EXTRA_KEYS) {
      if (msg[k] === undefined) continue;
      if (!EXTRA_CHECK[k](msg[k])) {
        throw badRequest(`${field}[${i}].${k} has the wrong type`, [
          { path: `${field}[${i}].${k}`, message: EXTRA_EXPECT[k] },
        ]);
      }
      (out as Record<string, unknown>)[k] = msg[k];
    }
    return out;
  });
}

/**
 * A title as one line of at most 120 characters: control characters (a NUL, a bell, an escape
 * sequence's ESC, pasted or written by the model that names the conversation) and runs of
 * whitespace become one space, the ends are trimmed; empty becomes null.
 */
export function cleanTitle(title: unknown): string | null {
  if (title === undefined || title === null) return null;
  if (typeof title !== 'string')
    throw badRequest('title must be a string', [{ path: 'title', message: 'must be a string' }]);
  const t = oneLineTitle(title);
  return t ? headGraphemes(t, MAX_CONVERSATION_TITLE_CHARS) : null;
}

interface Row {
  id: string;
  title: string | null;
  created_at: string;
  active_at: string;
  n: number;
}

const toSummary = (r: Row): ConversationSummary => ({
  id: r.id,
  title: r.title,
  createdAt: r.created_at,
  updatedAt: r.active_at,
  messageCount: r.n,
});

/** Conversations of one instance. */
export class ConversationStore {
  private readonly q;
  /** Message texts per conversation, in order, folded for search; dropped on every write to that conversation. */
  private readonly texts = new Map<string, string[]>();
  /** The last activity time handed out, ms: activity times only grow, so recency is the order of activity. */
  private lastActiveMs = 0;

  constructor(private readonly db: Db) {
    const newest = db.prepare('SELECT max(active_at) FROM conversations').pluck().get() as string | null;
    this.lastActiveMs = newest ? Date.parse(newest) : 0;
    const summary =
      'SELECT c.id, c.title, c.created_at, c.active_at, (SELECT count(*) FROM conversation_messages m WHERE m.conversation_id = c.id) AS n FROM conversations c';
    this.q = {
      list: db.prepare(`${summary} ORDER BY c.active_at DESC, c.rowid DESC`),
      one: db.prepare(`${summary} WHERE c.id = ?`),
      messages: db.prepare(
        'SELECT role, content, extra, created_at FROM conversation_messages WHERE conversation_id = ? ORDER BY seq',
      ),
      newest: db.prepare(
        'SELECT role, content, extra, created_at FROM conversation_messages WHERE conversation_id = ? ORDER BY seq DESC LIMIT ?',
      ),
      insertConv: db.prepare('INSERT INTO conversations (id, title, created_at, active_at) VALUES (?,?,?,?)'),
      touch: db.prepare('UPDATE conversations SET active_at = ? WHERE id = ?'),
      rename: db.prepare('UPDATE conversations SET title = ? WHERE id = ?'),
      title: db.prepare('SELECT title FROM conversations WHERE id = ?').pluck(),
      delete: db.prepare('DELETE FROM conversations WHERE id = ?'),
      deleteMessages: db.prepare('DELETE FROM conversation_messages WHERE conversation_id = ?'),
      maxSeq: db.prepare('SELECT max(seq) FROM conversation_messages WHERE conversation_id = ?').pluck(),
      newestSeqs: db.prepare(
        'SELECT seq, extra FROM conversation_messages WHERE conversation_id = ? ORDER BY seq DESC LIMIT ?',
      ),
      setExtra: db.prepare(
        'UPDATE conversation_messages SET extra = ? WHERE conversation_id = ? AND seq = ?',
      ),
      insertMsg: db.prepare(
        'INSERT INTO conversation_messages (conversation_id, seq, role, content, extra, created_at) VALUES (?,?,?,?,?,?)',
      ),
      trim: db.prepare(
        `DELETE FROM conversation_messages WHERE conversation_id = ? AND seq <= (
           SELECT seq FROM conversation_messages WHERE conversation_id = ? ORDER BY seq DESC LIMIT 1 OFFSET ?)`,
      ),
      count: db.prepare('SELECT count(*) FROM conversations').pluck(),
      oldest: db.prepare('SELECT id FROM conversations ORDER BY active_at ASC, rowid ASC LIMIT ?').pluck(),
      contents: db
        .prepare('SELECT content FROM conversation_messages WHERE conversation_id = ? ORDER BY seq')
        .pluck(),
      contentAt: db
        .prepare(
          'SELECT content FROM conversation_messages WHERE conversation_id = ? ORDER BY seq LIMIT 1 OFFSET ?',
        )
        .pluck(),
    };
  }

  /**
   * An activity time strictly later than every earlier one (ISO), even when the clock stands
   * still between two writes or steps back (NTP): list order and pruning follow real activity.
   */
  private activityTime(): string {
    this.lastActiveMs = Math.max(Date.now(), this.lastActiveMs + 1);
    return new Date(this.lastActiveMs).toISOString();
  }

  /** Every conversation, most recently active first. */
  /** Forgets what is cached in memory (the search texts): the tables were replaced underneath (an import or a restore). */
  forgetCache(): void {
    this.texts.clear();
    const newest = this.db.prepare('SELECT max(active_at) FROM conversations').pluck().get() as string | null;
    this.lastActiveMs = Math.max(this.lastActiveMs, newest ? Date.parse(newest) : 0);
  }

  list(): ConversationSummary[] {
    return (this.q.list.all() as Row[]).map(toSummary);
  }

  /** One conversation with its messages, or undefined. */
  get(id: string): Conversation | undefined {
    const row = this.q.one.get(id) as Row | undefined;
    if (!row) return undefined;
    return { ...toSummary(row), messages: (this.q.messages.all(id) as MsgRow[]).map(toMessage) };
  }

  /** Like get, but 404 when unknown. */
  require(id: string): Conversation {
    const c = this.get(id);
    if (!c) throw notFound(`no conversation with id "${id}"`, 'CONVERSATION_NOT_FOUND', { id });
    return c;
  }

  /** The title of a conversation: null when untitled or unknown. */
  titleOf(id: string): string | null {
    return (this.q.title.get(id) as string | null | undefined) ?? null;
  }

  /** Whether a conversation exists. */
  has(id: string): boolean {
    return this.q.one.get(id) !== undefined;
  }

  /** Creates a conversation (pruning the least recently active beyond 100). */
  create(input: { title?: unknown; messages?: unknown }): Conversation {
    const title = cleanTitle(input.title);
    const messages = input.messages === undefined ? [] : checkMessages(input.messages);
    const id = randomUUID();
    const now = this.activityTime();
    writeTransaction(this.db, () => {
      this.q.insertConv.run(id, title, now, now);
      this.insertMessages(id, messages, now);
      const over = (this.q.count.get() as number) - MAX_CONVERSATIONS;
      if (over > 0) {
        for (const old of this.q.oldest.all(over) as string[]) {
          if (old === id) continue;
          this.q.delete.run(old);
          this.texts.delete(old);
        }
      }
    });
    return this.require(id);
  }

  /** Renames (null clears the title). */
  rename(id: string, title: unknown): Conversation {
    this.assertExists(id);
    this.q.rename.run(cleanTitle(title), id);
    return this.require(id);
  }

  /** Deletes a conversation and its messages. @throws 404. */
  delete(id: string): void {
    this.assertExists(id);
    this.q.delete.run(id);
    this.texts.delete(id);
  }

  /** 404 unless the conversation exists (without loading its messages). */
  assertExists(id: string): void {
    if (!this.has(id)) throw notFound(`no conversation with id "${id}"`, 'CONVERSATION_NOT_FOUND', { id });
  }

  /** Replaces every message (`PUT /:id/messages`), keeping the newest 200. */
  replaceMessages(id: string, messages: unknown): Conversation {
    this.assertExists(id);
    const checked = checkMessages(messages);
    writeTransaction(this.db, () => {
      this.q.deleteMessages.run(id);
      const now = this.activityTime();
      this.insertMessages(id, checked, now);
      this.q.touch.run(now, id);
    });
    return this.require(id);
  }

  /** Appends messages (a turn's user message, or its reply), marking the conversation active. */
  append(id: string, messages: Omit<StoredMessage, 'createdAt'>[]): void {
    const now = this.activityTime();
    writeTransaction(this.db, () => {
      this.insertMessages(id, messages, now);
      this.q.touch.run(now, id);
    });
  }

  /**
   * The newest messages whose contents fit in `budgetChars` characters, oldest first; the newest
   * message always goes through ("a ~24k-character budget"). Messages a content filter refused
   * are left out.
   */
  window(id: string, budgetChars: number): StoredMessage[] {
    const out: StoredMessage[] = [];
    let used = 0;
    for (const row of this.q.newest.iterate(id, MAX_CONVERSATION_MESSAGES) as Iterable<MsgRow>) {
      const m = toMessage(row);
      if (m.refused) continue;
      used += m.content.length;
      if (out.length > 0 && used > budgetChars) break;
      out.push(m);
    }
    return out.reverse();
  }

  /**
   * Literal substring search over titles and message text that ignores case under Unicode full
   * case folding (src/common/case-fold.ts: "STRASSE" finds "straße", "istanbul" finds
   * "İstanbul"; `.` and `*` are themselves). Hits come in list order; a transcript hit carries
   * the matching line.
   */
  search(q: unknown): SearchHit[] {
    if (typeof q !== 'string' || q.trim() === '') {
      throw badRequest('q must be a non-empty string', [
        { path: 'q', message: 'must be a non-empty string' },
      ]);
    }
    // counted in characters as a person sees them: 500 emoji are 1000 UTF-16 units
    if (overGraphemes(q, MAX_SEARCH_CHARS)) {
      throw badRequest(`q is longer than ${MAX_SEARCH_CHARS} characters`, [
        { path: 'q', message: 'too long' },
      ]);
    }
    // Needle and texts are compared in NFC, then folded alike: "café" typed with a combining
    // accent (as macOS file names and some keyboards give it) is the same word as "café" with a
    // precomposed é. The match position is found in the folded text and mapped back to the
    // original for the snippet (folding can change lengths: "ß" is "ss").
    const needle = foldCase(q.normalize('NFC'));
    const hits: SearchHit[] = [];
    for (const c of this.list()) {
      let snippet: string | undefined;
      const texts = this.foldedTextsOf(c.id);
      for (let i = 0; i < texts.length; i++) {
        const at = texts[i].indexOf(needle);
        if (at >= 0) {
          snippet = this.snippetOf(c.id, i, at, needle.length);
          break;
        }
      }
      if (snippet !== undefined) hits.push({ ...c, snippet });
      else if (foldCase((c.title ?? '').normalize('NFC')).includes(needle)) hits.push(c);
    }
    return hits;
  }

  /** The message texts of a conversation in NFC, folded, from the cache (loaded on first use). */
  private foldedTextsOf(id: string): string[] {
    let t = this.texts.get(id);
    if (!t) {
      t = (this.q.contents.all(id) as string[]).map((text) => foldCase(text.normalize('NFC')));
      this.texts.set(id, t);
    }
    return t;
  }

  /** The snippet of message `index` of a conversation around a match found in its folded text. */
  private snippetOf(id: string, index: number, at: number, length: number): string {
    const text = ((this.q.contentAt.get(id, index) as string | undefined) ?? '').normalize('NFC');
    const span = unfoldedSpan(text, at, length);
    return snippetAround(text, span.at, span.length);
  }

  /**
   * Marks the newest `count` messages of conversation `id` as refused by the provider's content
   * filter (the messages of a turn the filter refused), so no later turn sends them again.
   */
  markRefused(id: string, count: number): void {
    writeTransaction(this.db, () => {
      for (const row of this.q.newestSeqs.all(id, count) as { seq: number; extra: string | null }[]) {
        const extra = { ...(row.extra ? JSON.parse(row.extra) : {}), refused: true };
        this.q.setExtra.run(JSON.stringify(extra), id, row.seq);
      }
    });
  }

  private insertMessages(id: string, messages: Omit<StoredMessage, 'createdAt'>[], now: string): void {
    this.texts.delete(id);
    let seq = ((this.q.maxSeq.get(id) as number | null) ?? 0) + 1;
    for (const m of messages.slice(-MAX_CONVERSATION_MESSAGES)) {
      const extra: Record<string, unknown> = {};
      for (const k of EXTRA_KEYS) if (m[k] !== undefined) extra[k] = m[k];
      this.q.insertMsg.run(
        id,
        seq++,
        m.role,
        m.content,
        Object.keys(extra).length ? JSON.stringify(extra) : null,
        now,
      );
    }
    this.q.trim.run(id, id, MAX_CONVERSATION_MESSAGES);
  }
}

interface MsgRow {
  role: 'user' | 'assistant';
  content: string;
  extra: string | null;
  created_at: string;
}

function toMessage(r: MsgRow): StoredMessage {
  return {
    role: r.role,
    content: r.content,
    createdAt: r.created_at,
    ...(r.extra ? JSON.parse(r.extra) : {}),
  };
}

/**
 * The line of `text` holding the match at `at` (UTF-16 index, `length` units), cut to about 160
 * characters around it. Counted and cut in user-perceived characters: a cut in UTF-16 units
 * could split an emoji into a lone surrogate (shown as �), or tear a flag, a skin tone or a
 * family emoji apart.
 */
export function snippetAround(text: string, at: number, length: number): string {
  const start = text.lastIndexOf('\n', at) + 1;
  const endNl = text.indexOf('\n', at + length);
  const end = endNl < 0 ? text.length : endNl;
  const line = text.slice(start, end);
  if (line.length <= 160) return line.trim();
  const chars = splitGraphemes(line);
  if (chars.length <= 160) return line.trim();
  // the character holding the match's first unit
  let matchChar = 0;
  for (let units = 0; matchChar < chars.length; matchChar++) {
    units += chars[matchChar].length;
    if (units > at - start) break;
  }
  const from = Math.max(0, Math.min(matchChar - 60, chars.length - 160));
  const kept = chars
    .slice(from, from + 160)
    .join('')
    .trim();
  return `${from > 0 ? '…' : ''}${kept}${from + 160 < chars.length ? '…' : ''}`;
}
