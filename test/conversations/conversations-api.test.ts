// `/api/conversations` over HTTP (docs/API.md "Chat, conversations, voice"; seed
// "Conversations"): list by recency, create (201), fetch, rename, replace messages (413 over
// 512 KB), delete, 404s, and POST /search with the needle in the body, regex characters literal.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
beforeAll(async () => {
  s = await startServer({ watch: false });
});
afterAll(async () => {
  await s.close();
});
beforeEach(async () => {
  for (const c of (await s.api('/api/conversations')).body.conversations) {
    await s.api(`/api/conversations/${c.id}`, { method: 'DELETE' });
  }
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const create = async (json: unknown) => {
  const r = await s.api('/api/conversations', { json });
  expect(r.status).toBe(201);
  return r.body.conversation;
};

describe('/api/conversations CRUD', () => {
  it('creates (201) with a title trimmed to 120 and messages; fetch returns it', async () => {
    const r = await s.api('/api/conversations', {
      json: {
        title: `   ${'T'.repeat(150)}   `,
        messages: [
          { role: 'user', content: 'hi' },
          { role: 'assistant', content: 'hello', hasVoice: true, followupText: 'more?' },
        ],
      },
    });
    expect(r.status).toBe(201);
    const c = r.body.conversation;
    expect(c.title).toBe('T'.repeat(120));
    expect(c.messageCount).toBe(2);
    expect(c.messages).toMatchObject([
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: 'hello', hasVoice: true, followupText: 'more?' },
    ]);
    const got = await s.api(`/api/conversations/${c.id}`);
    expect(got.status).toBe(200);
    expect(got.body.conversation).toEqual(c);
    const empty = await create({});
    expect(empty).toMatchObject({ title: null, messageCount: 0, messages: [] });
  });

  it('lists summaries by recency (activity moves a conversation up), without messages', async () => {
    const a = await create({ title: 'A' });
    await sleep(5);
    const b = await create({ title: 'B' });
    await sleep(5);
    const list1 = (await s.api('/api/conversations')).body.conversations;
    expect(list1.map((c: { title: string }) => c.title)).toEqual(['B', 'A']);
    expect(list1[0]).not.toHaveProperty('messages');
    expect(Object.keys(list1[0]).sort()).toEqual(['createdAt', 'id', 'messageCount', 'title', 'updatedAt']);
    await s.api(`/api/conversations/${a.id}/messages`, {
      method: 'PUT',
      json: { messages: [{ role: 'user', content: 'x' }] },
    });
    const list2 = (await s.api('/api/conversations')).body.conversations;
    expect(list2.map((c: { id: string }) => c.id)).toEqual([a.id, b.id]);
    expect(list2[0].messageCount).toBe(1);
  });

  it('PATCH renames (trimmed), null clears; PUT replaces the messages; DELETE removes', async () => {
    const c = await create({ title: 'old', messages: [{ role: 'user', content: 'one' }] });
    const renamed = await s.api(`/api/conversations/${c.id}`, {
      method: 'PATCH',
      json: { title: '  new name  ' },
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body.conversation.title).toBe('new name');
    // a title is one line: control characters (NUL, BEL, ESC, a C1 control) are a space like a tab
    const controls = await s.api(`/api/conversations/${c.id}`, {
      method: 'PATCH',
      json: { title: '\u0000Sleep\u0000notes\u0007\u001b[1m bold\u009b\u0085x\u007f' },
    });
    expect(controls.body.conversation.title).toBe('Sleep notes [1m bold x');
    const cleared = await s.api(`/api/conversations/${c.id}`, { method: 'PATCH', json: { title: null } });
    expect(cleared.body.conversation.title).toBeNull();

    const put = await s.api(`/api/conversations/${c.id}/messages`, {
      method: 'PUT',
      json: {
        messages: [
          { role: 'user', content: 'two' },
          { role: 'assistant', content: 'three', capped: true },
        ],
      },
    });
    expect(put.status).toBe(200);
    expect(put.body.conversation.messages).toMatchObject([
      { role: 'user', content: 'two' },
      { role: 'assistant', content: 'three', capped: true },
    ]);
    expect((await s.api(`/api/conversations/${c.id}`)).body.conversation.messages).toHaveLength(2);

    const del = await s.api(`/api/conversations/${c.id}`, { method: 'DELETE' });
    expect(del.status).toBe(200);
    expect(del.body.ok).toBe(true);
    expect((await s.api(`/api/conversations/${c.id}`)).status).toBe(404);
    expect((await s.api('/api/conversations')).body.conversations).toEqual([]);
  });

  it('404 for an unknown id on GET, PATCH, PUT messages and DELETE', async () => {
    const id = '00000000-0000-4000-8000-000000000000';
    expect((await s.api(`/api/conversations/${id}`)).status).toBe(404);
    expect((await s.api(`/api/conversations/${id}`, { method: 'PATCH', json: { title: 'x' } })).status).toBe(
      404,
    );
    expect(
      (await s.api(`/api/conversations/${id}/messages`, { method: 'PUT', json: { messages: [] } })).status,
    ).toBe(404);
    expect((await s.api(`/api/conversations/${id}`, { method: 'DELETE' })).status).toBe(404);
    const r = await s.api(`/api/conversations/${id}`);
    expect(r.body).toMatchObject({ code: 'CONVERSATION_NOT_FOUND' });
  });

  it('400 for bad messages or title', async () => {
    expect((await s.api('/api/conversations', { json: { messages: 'x' } })).status).toBe(400);
    expect(
      (await s.api('/api/conversations', { json: { messages: [{ role: 'tool', content: 'x' }] } })).status,
    ).toBe(400);
    expect((await s.api('/api/conversations', { json: { title: 7 } })).status).toBe(400);
    const c = await create({ title: 't' });
    const bad = await s.api(`/api/conversations/${c.id}/messages`, {
      method: 'PUT',
      json: { messages: [{ role: 'user' }] },
    });
    expect(bad.status).toBe(400);
    expect((await s.api('/api/conversations')).body.conversations).toHaveLength(1);
  });

  it('PUT messages over 512 KB is 413 and keeps the old messages; POST over 512 KB is 413 and creates nothing', async () => {
    const c = await create({ title: 'keep', messages: [{ role: 'user', content: 'original' }] });
    const big = [{ role: 'user', content: 'x'.repeat(520 * 1024) }];
    const put = await s.api(`/api/conversations/${c.id}/messages`, {
      method: 'PUT',
      json: { messages: big },
    });
    expect(put.status).toBe(413);
    expect(
      (await s.api(`/api/conversations/${c.id}`)).body.conversation.messages.map(
        (m: { content: string }) => m.content,
      ),
    ).toEqual(['original']);
    const post = await s.api('/api/conversations', { json: { title: 'big', messages: big } });
    expect(post.status).toBe(413);
    expect((await s.api('/api/conversations')).body.conversations).toHaveLength(1);
  });

  it('PUT of 250 messages keeps the newest 200', async () => {
    const c = await create({ title: 'long' });
    const messages = Array.from({ length: 250 }, (_, i) => ({
      role: i % 2 ? 'assistant' : 'user',
      content: `m${i}`,
    }));
    const put = await s.api(`/api/conversations/${c.id}/messages`, { method: 'PUT', json: { messages } });
    expect(put.body.conversation.messageCount).toBe(200);
    expect(put.body.conversation.messages[0].content).toBe('m50');
    expect(put.body.conversation.messages.at(-1).content).toBe('m249');
  });
});

describe('POST /api/conversations/search', () => {
  it('finds titles and message text case-insensitively, with a snippet of the matching line', async () => {
    const byTitle = await create({ title: 'Blood PRESSURE notes' });
    await sleep(5);
    const byText = await create({
      title: 'Tuesday',
      messages: [{ role: 'user', content: 'hello\nmy blood pressure was 120/80\nbye' }],
    });
    await create({ title: 'Other', messages: [{ role: 'user', content: 'sleep' }] });
    const r = await s.api('/api/conversations/search', { json: { q: 'blood pressure' } });
    expect(r.status).toBe(200);
    const hits = r.body.conversations;
    expect(hits.map((h: { id: string }) => h.id)).toEqual([byText.id, byTitle.id]);
    expect(hits[0]).toMatchObject({
      id: byText.id,
      title: 'Tuesday',
      messageCount: 1,
      snippet: 'my blood pressure was 120/80',
    });
    expect(hits[1].snippet).toBeUndefined();
    expect(hits[0]).not.toHaveProperty('messages');
  });

  it('regex characters in the needle are themselves', async () => {
    const dot = await create({ title: 'dot', messages: [{ role: 'user', content: 'dose 2.5 mg' }] });
    await create({ title: 'nodot', messages: [{ role: 'user', content: 'dose 205 mg' }] });
    const star = await create({ title: 'a*b', messages: [] });
    await create({ title: 'aab', messages: [] });
    const paren = await create({
      title: 'p',
      messages: [{ role: 'assistant', content: 'BMI (kg/m²) [approx] \\o/' }],
    });
    const q = async (needle: string) =>
      (await s.api('/api/conversations/search', { json: { q: needle } })).body.conversations.map(
        (h: { id: string }) => h.id,
      );
    expect(await q('2.5')).toEqual([dot.id]);
    expect(await q('a*b')).toEqual([star.id]);
    expect(await q('.*')).toEqual([]);
    expect(await q('(kg')).toEqual([paren.id]);
    expect(await q('[approx')).toEqual([paren.id]);
    expect(await q('\\o/')).toEqual([paren.id]);
    expect(await q('KG/M²')).toEqual([paren.id]);
  });

  it('a word spelt with combining accents matches the same word precomposed, either way round', async () => {
    const nfd = 'Cafe\u0301 au lait, Übelkeit'.normalize('NFD');
    const text = await create({ title: 'Morning', messages: [{ role: 'user', content: nfd }] });
    const title = await create({ title: 'Notes on crème brûlée'.normalize('NFD'), messages: [] });
    const q = async (needle: string) =>
      (await s.api('/api/conversations/search', { json: { q: needle } })).body.conversations;
    const hits = await q('café'.normalize('NFC'));
    expect(hits.map((h: { id: string }) => h.id)).toEqual([text.id]);
    expect(hits[0].snippet).toBe('Café au lait, Übelkeit'.normalize('NFC'));
    expect((await q('übelkeit'.normalize('NFD'))).map((h: { id: string }) => h.id)).toEqual([text.id]);
    expect((await q('BRÛLÉE'.normalize('NFC'))).map((h: { id: string }) => h.id)).toEqual([title.id]);
  });

  it('ignores case under full case folding, the same on the needle and the text', async () => {
    const city = await create({
      title: 'Trip',
      messages: [{ role: 'user', content: 'first line\nFlight to İSTANBUL on Monday' }],
    });
    const street = await create({
      title: 'Address',
      messages: [{ role: 'user', content: 'Hauptstraße 5, Köln' }],
    });
    const capital = await create({ title: 'GROẞE SCHRITTE', messages: [] });
    const greek = await create({ title: 'Greek', messages: [{ role: 'user', content: 'ΟΔΟΣ and more' }] });
    const q = async (needle: string) =>
      (await s.api('/api/conversations/search', { json: { q: needle } })).body.conversations;
    const ids = async (needle: string) => (await q(needle)).map((h: { id: string }) => h.id);
    expect(await ids('istanbul')).toEqual([city.id]);
    expect(await ids('İstanbul')).toEqual([city.id]);
    expect(await ids('STANBUL ON')).toEqual([city.id]);
    expect((await q('istanbul'))[0].snippet).toBe('Flight to İSTANBUL on Monday');
    expect(await ids('STRASSE')).toEqual([street.id]);
    expect(await ids('strasse 5')).toEqual([street.id]);
    expect(await ids('straße')).toEqual([street.id]);
    expect((await q('SSE 5'))[0]).toMatchObject({ id: street.id, snippet: 'Hauptstraße 5, Köln' });
    expect(await ids('große')).toEqual([capital.id]);
    expect(await ids('grosse')).toEqual([capital.id]);
    expect(await ids('οδοσ')).toEqual([greek.id]);
    expect(await ids('οδος')).toEqual([greek.id]);
    expect(await ids('strasse 6')).toEqual([]);
  });

  it('400 without a needle; the needle is not taken from the URL', async () => {
    expect((await s.api('/api/conversations/search', { json: {} })).status).toBe(400);
    expect((await s.api('/api/conversations/search', { json: { q: '' } })).status).toBe(400);
    expect((await s.api('/api/conversations/search?q=x', { json: {} })).status).toBe(400);
  });
});
