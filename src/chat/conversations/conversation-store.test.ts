// ConversationStore on a real SQLite database (docs/API.md
// "Conversations"): CRUD, recency, the 100-conversation and 200-message caps, the 512 KB
// write limit, the transcript window and the literal, case-insensitive search.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MIGRATION_STEPS } from '../../migration-steps.js';
import { closeDatabase, type Db, openDatabase } from '../../store/database.js';
import { ConversationStore } from './conversation-store.js';

let dir: string;
let db: Db;
let store: ConversationStore;

// recency is a clock matter: each step of a test gets its own distinct millisecond
let clock = Date.parse('2026-04-20T08:00:00.000Z');
const tick = () => {
  clock += 1000;
  vi.setSystemTime(clock);
};

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  tick();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'klebb-conv-'));
  db = openDatabase(path.join(dir, 'klebb.sqlite'), { steps: MIGRATION_STEPS });
  store = new ConversationStore(db);
});
afterEach(() => {
  vi.useRealTimers();
  closeDatabase(db);
  fs.rmSync(dir, { recursive: true, force: true });
});

const user = (content: string) => ({ role: 'user' as const, content });
const assistant = (content: string) => ({ role: 'assistant' as const, content });
const statusOf = (fn: () => unknown): number | undefined => {
  try {
    fn();
  } catch (err) {
    return (err as { status?: number }).status;
  }
  return undefined;
};
const messageRows = (id: string) =>
  db
    .prepare('SELECT count(*) FROM conversation_messages WHERE conversation_id = ?')
    .pluck()
    .get(id) as number;

describe('ConversationStore: create, list, get, rename, delete, replaceMessages', () => {
  it('creates a conversation with its messages, one store row per message', () => {
    const c = store.create({ title: 'Sleep', messages: [user('how did I sleep?'), assistant('7 h 10 min')] });
    expect(c.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(c).toMatchObject({ title: 'Sleep', messageCount: 2 });
    expect(c.messages.map((m) => [m.role, m.content])).toEqual([
      ['user', 'how did I sleep?'],
      ['assistant', '7 h 10 min'],
    ]);
    expect(typeof c.messages[0].createdAt).toBe('string');
    expect(messageRows(c.id)).toBe(2);
    expect(store.get(c.id)).toEqual(c);
  });

  it('an untitled, empty conversation is fine; get of an unknown id is undefined and require is 404', () => {
    const c = store.create({});
    expect(c).toMatchObject({ title: null, messageCount: 0, messages: [] });
    expect(store.get('nope')).toBeUndefined();
    expect(statusOf(() => store.require('nope'))).toBe(404);
  });

  it('lists by recency: the most recently active first (a new message counts as activity)', () => {
    const a = store.create({ title: 'A' });
    tick();
    const b = store.create({ title: 'B' });
    tick();
    const c = store.create({ title: 'C' });
    expect(store.list().map((x) => x.title)).toEqual(['C', 'B', 'A']);
    tick();
    store.append(a.id, [user('back to A')]);
    expect(store.list().map((x) => x.title)).toEqual(['A', 'C', 'B']);
    tick();
    store.replaceMessages(b.id, [user('B again')]);
    expect(store.list().map((x) => x.title)).toEqual(['B', 'A', 'C']);
    const listed = store.list().find((x) => x.id === c.id);
    expect(listed).toEqual({
      id: c.id,
      title: 'C',
      createdAt: c.createdAt,
      updatedAt: c.updatedAt,
      messageCount: 0,
    });
  });

  it('rename trims the title, collapses its whitespace and cuts it to 120 characters; null clears it', () => {
    const c = store.create({ title: '   first   title  ' });
    expect(c.title).toBe('first title');
    const long = `  ${'x'.repeat(200)}  `;
    expect(store.rename(c.id, long).title).toBe('x'.repeat(120));
    // characters, not UTF-16 units: an emoji is not cut in half
    const emoji = '🙂'.repeat(130);
    expect(store.rename(c.id, emoji).title).toBe('🙂'.repeat(120));
    expect(store.rename(c.id, null).title).toBeNull();
    expect(store.rename(c.id, '   ').title).toBeNull();
    expect(statusOf(() => store.rename(c.id, 42))).toBe(400);
    expect(statusOf(() => store.rename('nope', 'x'))).toBe(404);
    expect(store.create({ title: 'y'.repeat(500) }).title).toBe('y'.repeat(120));
  });

  it('delete removes the conversation and its messages; an unknown id is 404', () => {
    const c = store.create({ title: 'gone', messages: [user('a'), assistant('b')] });
    const keep = store.create({ title: 'kept', messages: [user('c')] });
    store.delete(c.id);
    expect(store.get(c.id)).toBeUndefined();
    expect(messageRows(c.id)).toBe(0);
    expect(store.list().map((x) => x.id)).toEqual([keep.id]);
    expect(messageRows(keep.id)).toBe(1);
    expect(statusOf(() => store.delete(c.id))).toBe(404);
  });

  it('replaceMessages replaces every message, keeps the known extras and drops unknown keys', () => {
    const c = store.create({ title: 't', messages: [user('old 1'), assistant('old 2'), user('old 3')] });
    const next = store.replaceMessages(c.id, [
      user('new 1'),
      {
        role: 'assistant',
        content: 'new 2',
        hasVoice: true,
        capped: true,
        followupText: 'log it again?',
        embellishments: [{ label: 'Chart', prompt: 'make a chart' }],
        secret: 'dropped',
      },
    ]);
    expect(next.messageCount).toBe(2);
    expect(next.messages.map((m) => m.content)).toEqual(['new 1', 'new 2']);
    const { createdAt: _, ...reply } = next.messages[1];
    expect(reply).toEqual({
      role: 'assistant',
      content: 'new 2',
      hasVoice: true,
      capped: true,
      followupText: 'log it again?',
      embellishments: [{ label: 'Chart', prompt: 'make a chart' }],
    });
    expect(messageRows(c.id)).toBe(2);
    expect(store.replaceMessages(c.id, []).messages).toEqual([]);
    expect(statusOf(() => store.replaceMessages(c.id, [{ role: 'system', content: 'x' }]))).toBe(400);
    expect(statusOf(() => store.replaceMessages(c.id, [{ role: 'user', content: 5 }]))).toBe(400);
    expect(statusOf(() => store.replaceMessages(c.id, 'not an array'))).toBe(400);
    expect(statusOf(() => store.replaceMessages('nope', []))).toBe(404);
  });
});

describe('ConversationStore: caps', () => {
  it('the 101st conversation prunes the least recently active one (and its messages)', () => {
    const ids: string[] = [];
    for (let i = 0; i < 100; i++) {
      tick();
      ids.push(store.create({ title: `c${i}`, messages: [user(`m${i}`)] }).id);
    }
    // c0 is the oldest by creation, but it becomes active again: c1 is now the least recently active
    tick();
    store.append(ids[0], [assistant('still here')]);
    tick();
    const fresh = store.create({ title: 'c100' });
    const listed = store.list();
    expect(listed).toHaveLength(100);
    expect(listed[0].id).toBe(fresh.id);
    expect(store.get(ids[1])).toBeUndefined();
    expect(messageRows(ids[1])).toBe(0);
    expect(store.get(ids[0])?.messageCount).toBe(2);
    expect(store.get(ids[2])).toBeDefined();
    // and the next one prunes the next least recently active
    tick();
    store.create({ title: 'c101' });
    expect(store.list()).toHaveLength(100);
    expect(store.get(ids[2])).toBeUndefined();
    expect(store.get(ids[0])).toBeDefined();
  });

  it('recency follows the order of activity even when the clock does not move between writes', () => {
    // a coarse or frozen clock (same millisecond, or a clock stepped back by NTP) must not make
    // the conversation that was just used look like the least recently active one
    const ids: string[] = [];
    for (let i = 0; i < 100; i++) ids.push(store.create({ title: `c${i}` }).id);
    store.append(ids[0], [user('used just now')]);
    expect(store.list()[0].id).toBe(ids[0]);
    store.create({ title: 'c100' });
    expect(store.get(ids[0])).toBeDefined();
    expect(store.get(ids[1])).toBeUndefined();
  });

  it('201 messages keep the newest 200, on create, replace and append', () => {
    const many = Array.from({ length: 201 }, (_, i) => (i % 2 === 0 ? user(`m${i}`) : assistant(`m${i}`)));
    const c = store.create({ title: 'long', messages: many });
    expect(c.messageCount).toBe(200);
    expect(c.messages[0].content).toBe('m1');
    expect(c.messages.at(-1)?.content).toBe('m200');
    expect(messageRows(c.id)).toBe(200);

    const replaced = store.replaceMessages(c.id, [...many, user('m201'), assistant('m202')]);
    expect(replaced.messageCount).toBe(200);
    expect(replaced.messages.map((m) => m.content)).toEqual(
      Array.from({ length: 200 }, (_, i) => `m${i + 3}`),
    );

    store.append(c.id, [user('m203')]);
    const after = store.require(c.id);
    expect(after.messageCount).toBe(200);
    expect(after.messages[0].content).toBe('m4');
    expect(after.messages.at(-1)?.content).toBe('m203');
    expect(messageRows(c.id)).toBe(200);
  });

  it('a write over 512 KB is 413 and changes nothing', () => {
    const big = [user('a'.repeat(300 * 1024)), assistant('b'.repeat(300 * 1024))];
    expect(statusOf(() => store.create({ title: 'too big', messages: big }))).toBe(413);
    expect(store.list()).toEqual([]);
    const c = store.create({ title: 'small', messages: [user('keep me')] });
    expect(statusOf(() => store.replaceMessages(c.id, big))).toBe(413);
    expect(store.require(c.id).messages.map((m) => m.content)).toEqual(['keep me']);
    // just under the limit is fine (multi-byte text counts in bytes)
    const under = [user('ä'.repeat(250 * 1024))]; // 500 KB of UTF-8
    expect(store.replaceMessages(c.id, under).messageCount).toBe(1);
    const over = [user('ä'.repeat(260 * 1024))]; // 520 KB of UTF-8, 260 K characters
    expect(statusOf(() => store.replaceMessages(c.id, over))).toBe(413);
  });
});

describe('ConversationStore: window()', () => {
  it('returns the newest messages within the budget, oldest first', () => {
    const c = store.create({
      title: 'w',
      messages: [
        user(`OLD${'o'.repeat(9_997)}`),
        assistant('a'.repeat(10_000)),
        user('u'.repeat(8_000)),
        assistant('b'.repeat(6_000)),
      ],
    });
    const w = store.window(c.id, 24_000);
    expect(w.map((m) => m.content.length)).toEqual([10_000, 8_000, 6_000]);
    expect(w.map((m) => m.role)).toEqual(['assistant', 'user', 'assistant']);
    expect(w.some((m) => m.content.startsWith('OLD'))).toBe(false);
  });

  it('a budget met exactly still holds the message; one character more leaves it out', () => {
    const c = store.create({
      title: 'w',
      messages: [user('x'.repeat(12_000)), assistant('y'.repeat(12_000))],
    });
    expect(store.window(c.id, 24_000)).toHaveLength(2);
    store.append(c.id, [user('z')]);
    expect(store.window(c.id, 24_000).map((m) => m.content.length)).toEqual([12_000, 1]);
  });

  it('the newest message always goes through, even when it alone is larger than the budget', () => {
    const c = store.create({
      title: 'w',
      messages: [user('small'), assistant('ok'), user('h'.repeat(30_000))],
    });
    const w = store.window(c.id, 24_000);
    expect(w).toHaveLength(1);
    expect(w[0].content).toHaveLength(30_000);
    expect(store.window(store.create({}).id, 24_000)).toEqual([]);
  });

  it('keeps the stored extras on the windowed messages', () => {
    const c = store.create({
      title: 'w',
      messages: [user('q'), { role: 'assistant', content: 'r', capped: true }, user('go on')],
    });
    expect(store.window(c.id, 24_000)[1]).toMatchObject({ role: 'assistant', content: 'r', capped: true });
  });
});

describe('ConversationStore: search()', () => {
  it('is a case-insensitive substring over titles and message text, in list order', () => {
    const t = store.create({ title: 'Morning RUN log', messages: [user('nothing here')] });
    tick();
    const m = store.create({ title: 'Other', messages: [user('I went for a run today'), assistant('Nice')] });
    tick();
    store.create({ title: 'Unrelated', messages: [user('sleep')] });
    const hits = store.search('Run');
    expect(hits.map((h) => h.id)).toEqual([m.id, t.id]);
    expect(hits[0].snippet).toBe('I went for a run today');
    // a title hit carries no snippet and is the list's summary
    expect(hits[1]).toEqual(store.list().find((x) => x.id === t.id));
    expect(store.search('zzz')).toEqual([]);
  });

  it('regex characters are themselves: . * ( [ \\ ? + ^ $ |', () => {
    const dot = store.create({ title: 'dot', messages: [user('version 1.5 released')] });
    store.create({ title: 'nodot', messages: [user('version 105 released')] });
    const star = store.create({ title: 'star', messages: [user('rated 5* overall')] });
    store.create({ title: 'nostar', messages: [user('rated 55 overall')] });
    const paren = store.create({ title: 'paren', messages: [user('f(x) = 2x')] });
    const bracket = store.create({ title: 'bracket', messages: [user('see [1] below')] });
    const slash = store.create({ title: 'slash', messages: [user('saved to C:\\health\\notes')] });
    const misc = store.create({ title: 'misc', messages: [user('a+b? ^start$ a|b')] });
    expect(store.search('1.5').map((h) => h.id)).toEqual([dot.id]);
    expect(store.search('5*').map((h) => h.id)).toEqual([star.id]);
    expect(store.search('.*')).toEqual([]);
    expect(store.search('f(x').map((h) => h.id)).toEqual([paren.id]);
    expect(store.search('(').map((h) => h.id)).toEqual([paren.id]);
    expect(store.search('[1').map((h) => h.id)).toEqual([bracket.id]);
    expect(store.search('[').map((h) => h.id)).toEqual([bracket.id]);
    expect(store.search('\\health').map((h) => h.id)).toEqual([slash.id]);
    expect(store.search('\\').map((h) => h.id)).toEqual([slash.id]);
    expect(store.search('a+b?').map((h) => h.id)).toEqual([misc.id]);
    expect(store.search('^start$').map((h) => h.id)).toEqual([misc.id]);
    expect(store.search('a|b').map((h) => h.id)).toEqual([misc.id]);
    // SQL LIKE wildcards are no wildcards either
    expect(store.search('%')).toEqual([]);
    expect(store.search('1_5')).toEqual([]);
  });

  it('folds the case of non-ASCII letters', () => {
    const a = store.create({ title: 'fruit', messages: [user('drei äpfel am tag')] });
    const b = store.create({ title: 'ÉTÉ À PARIS', messages: [] });
    const c = store.create({ title: 'greek', messages: [assistant('ΟΔΥΣΣΕΑΣ')] });
    expect(store.search('ÄPFEL').map((h) => h.id)).toEqual([a.id]);
    expect(store.search('ÄPFEL')[0].snippet).toBe('drei äpfel am tag');
    expect(store.search('été à').map((h) => h.id)).toEqual([b.id]);
    expect(store.search('οδυσσ').map((h) => h.id)).toEqual([c.id]);
  });

  it('the snippet is the matching line; a long line is cut around the match', () => {
    const c = store.create({
      title: 'notes',
      messages: [user('first line\n  second line has the NEEDLE in it  \nthird line')],
    });
    expect(store.search('needle')).toEqual([
      { ...store.list()[0], snippet: 'second line has the NEEDLE in it' },
    ]);
    expect(store.search('needle')[0].id).toBe(c.id);

    store.delete(c.id);
    const line = `${'a'.repeat(1000)} NEEDLE ${'b'.repeat(1000)}`;
    store.create({ title: 'long', messages: [user(`intro\n${line}\noutro`)] });
    const snippet = store.search('needle')[0].snippet as string;
    expect(snippet).toContain('NEEDLE');
    expect(snippet.length).toBeLessThanOrEqual(170);
    expect(snippet.length).toBeGreaterThan(20);
    expect(snippet).not.toContain('intro');
    expect(snippet).not.toContain('outro');
    expect(snippet.startsWith('…')).toBe(true);
    expect(snippet.endsWith('…')).toBe(true);
  });

  it('a long-line snippet holds the match even when lower-casing changes the text length before it', () => {
    // "İ" (U+0130) lower-cases to two UTF-16 units; a match position taken in the lower-cased
    // copy must not be applied to the original text
    const line = `${'İ'.repeat(300)} NEEDLE ${'b'.repeat(600)}`;
    store.create({ title: 'turkish', messages: [user(line)] });
    const hits = store.search('needle');
    expect(hits).toHaveLength(1);
    expect(hits[0].snippet).toContain('NEEDLE');
  });

  it('the first matching message gives the snippet; an empty needle is 400', () => {
    store.create({
      title: 't',
      messages: [user('no'), assistant('first match: walk'), user('second match: walk')],
    });
    expect(store.search('WALK')[0].snippet).toBe('first match: walk');
    expect(statusOf(() => store.search(''))).toBe(400);
    expect(statusOf(() => store.search('   '))).toBe(400);
    expect(statusOf(() => store.search(undefined))).toBe(400);
    expect(statusOf(() => store.search(5))).toBe(400);
  });
});
