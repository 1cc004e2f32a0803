// POST /api/chat with a conversationId (docs/CHAT-AGENT.md "Conversations (conversationId)";
// docs/API.md "Conversations"): the server owns the transcript. The new
// message is stored before the loop runs, the loop reads the stored window, the reply (with
// capped / hasVoice) is stored before the `reply` event, a turn already running is 409 and stores
// nothing, and an untitled conversation gets a cleaned title from a side call that never fails the
// turn.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ScriptedGateway } from '../helpers/scripted-gateway.js';
import type { TestServer } from '../helpers/server.js';
import { bootChat, dialogue, eventually, isTitleCall, readSse, sleep } from './conv-helpers.js';

let gw: ScriptedGateway;
let s: TestServer;
let close: () => Promise<void>;
beforeAll(async () => {
  ({ gw, s, close } = await bootChat());
});
afterAll(async () => {
  await close();
});
afterEach(async () => {
  // every scripted step was used (a leftover step means a call that should have happened did not)
  await eventually(() => gw.remaining === 0, 'the script to be used up', 5_000);
  // and no turn is left running into the next test
  await eventually(
    () => s.inst.conversations.list().every((c) => !s.inst.turns.isRunning(c.id)),
    'turns to end',
  );
});

// biome-ignore lint/suspicious/noExplicitAny: JSON bodies
const conversation = async (id: string): Promise<any> =>
  (await s.api(`/api/conversations/${id}`)).body.conversation;
const newConversation = async (json: Record<string, unknown> = { title: 'Titled already' }) =>
  (await s.api('/api/conversations', { json })).body.conversation.id as string;
const turnRequests = () => gw.requests.filter((r) => !isTitleCall(r.body));
const contents = (msgs: { role: string; content: string }[]) => msgs.map((m) => `${m.role}:${m.content}`);

describe('POST /api/chat with conversationId', () => {
  it('an unknown conversation is 404 and the gateway is never called', async () => {
    const before = gw.requests.length;
    const r = await s.api('/api/chat', {
      json: { conversationId: 'no-such-conversation', messages: [{ role: 'user', content: 'hi' }] },
    });
    expect(r.status).toBe(404);
    const streamed = await readSse(`${s.url}/api/chat`, {
      body: {
        stream: true,
        conversationId: 'no-such-conversation',
        messages: [{ role: 'user', content: 'hi' }],
      },
    });
    expect(streamed.status).toBe(404);
    expect(gw.requests.length).toBe(before);
  });

  it('stores the user’s message before the loop runs, and the reply after it', async () => {
    const id = await newConversation();
    const before = gw.requests.length;
    gw.script({ kind: 'reply', text: 'You slept 7 hours.', headersDelayMs: 800 });
    const pending = s.api('/api/chat', {
      json: { conversationId: id, messages: [{ role: 'user', content: 'how did I sleep?' }] },
    });
    await eventually(() => gw.requests.length > before, 'the loop to call the gateway');
    // the gateway step is still delayed: the loop is running
    expect(s.inst.turns.isRunning(id)).toBe(true);
    const during = await conversation(id);
    expect(contents(during.messages)).toEqual(['user:how did I sleep?']);
    const r = await pending;
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ reply: 'You slept 7 hours.' });
    const after = await conversation(id);
    expect(contents(after.messages)).toEqual(['user:how did I sleep?', 'assistant:You slept 7 hours.']);
  });

  it('a failed turn still shows the user’s message and stores no reply', async () => {
    const id = await newConversation();
    gw.script({ kind: 'error', status: 400, body: { error: { message: 'bad request' } } });
    const r = await s.api('/api/chat', {
      json: { conversationId: id, messages: [{ role: 'user', content: 'will fail' }] },
    });
    expect(r.status).toBeGreaterThanOrEqual(400);
    expect(contents((await conversation(id)).messages)).toEqual(['user:will fail']);
  });

  it('the reply is stored before the reply event: a client that reads done and then GETs always finds it', async () => {
    const id = await newConversation();
    gw.script({ kind: 'reply', chunks: ['Your ', 'weight ', 'is ', 'stable.'], chunkDelayMs: 20 });
    const seenAtReply: string[][] = [];
    let attached = false;
    const r = await readSse(
      `${s.url}/api/chat`,
      { body: { stream: true, conversationId: id, messages: [{ role: 'user', content: 'weight trend?' }] } },
      {
        onEvent: () => {
          if (attached) return;
          attached = true;
          // an in-process listener on the hub: at the moment the reply event goes out, the store
          // must already hold the reply
          s.inst.turns.attach(id, undefined, (e) => {
            if (e.event.type === 'reply')
              seenAtReply.push(contents(s.inst.conversations.require(id).messages));
          });
        },
      },
    );
    expect(r.events.map((e) => e.event).slice(-2)).toEqual(['reply', 'done']);
    const after = await conversation(id);
    expect(contents(after.messages)).toEqual(['user:weight trend?', 'assistant:Your weight is stable.']);
    expect(seenAtReply).toEqual([['user:weight trend?', 'assistant:Your weight is stable.']]);
  });

  it('a voice reply is stored with hasVoice (its display text as content)', async () => {
    const id = await newConversation();
    gw.script({
      kind: 'reply',
      text: '{"speak": "You walked eight thousand steps.", "display": "You walked **8,000** steps."}',
    });
    const r = await s.api('/api/chat', {
      json: { conversationId: id, voiceMode: true, messages: [{ role: 'user', content: 'steps today?' }] },
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      reply: 'You walked **8,000** steps.',
      speak: 'You walked eight thousand steps.',
    });
    const last = (await conversation(id)).messages.at(-1);
    expect(last).toMatchObject({ role: 'assistant', content: 'You walked **8,000** steps.', hasVoice: true });
    expect(last.capped).toBeUndefined();
  });

  it('the loop is fed the stored window: earlier messages, and the new one exactly once', async () => {
    const id = await newConversation({
      title: 'ongoing',
      messages: [
        { role: 'user', content: 'earlier question' },
        { role: 'assistant', content: 'earlier answer' },
      ],
    });
    const before = gw.requests.length;
    gw.script({ kind: 'reply', text: 'later answer' });
    const r = await s.api('/api/chat', {
      json: { conversationId: id, messages: [{ role: 'user', content: 'new question' }] },
    });
    expect(r.status).toBe(200);
    const sent = gw.requests.slice(before).filter((q) => !isTitleCall(q.body));
    expect(sent).toHaveLength(1);
    expect(contents(dialogue(sent[0].body))).toEqual([
      'user:earlier question',
      'assistant:earlier answer',
      'user:new question',
    ]);
    expect(sent[0].body.messages[0].role).toBe('system');
    // the next turn sees the stored reply too
    gw.script({ kind: 'reply', text: 'third answer' });
    await s.api('/api/chat', {
      json: { conversationId: id, messages: [{ role: 'user', content: 'third question' }] },
    });
    expect(contents(dialogue(turnRequests().at(-1)?.body))).toEqual([
      'user:earlier question',
      'assistant:earlier answer',
      'user:new question',
      'assistant:later answer',
      'user:third question',
    ]);
  });

  it('the window holds the newest messages within 24 000 characters; older ones stay stored but are not sent', async () => {
    const id = await newConversation({
      title: 'big',
      messages: [
        { role: 'user', content: `OLDEST ${'o'.repeat(20_000)}` },
        { role: 'assistant', content: `RECENT ${'r'.repeat(5_000)}` },
      ],
    });
    gw.script({ kind: 'reply', text: 'ok' });
    await s.api('/api/chat', { json: { conversationId: id, messages: [{ role: 'user', content: 'next' }] } });
    const sent = dialogue(turnRequests().at(-1)?.body);
    expect(sent.map((m) => m.content.slice(0, 6))).toEqual(['RECENT', 'next']);
    expect((await conversation(id)).messageCount).toBe(4);
  });

  it('a second POST while a turn runs is 409 and its message is not stored', async () => {
    const id = await newConversation();
    const before = gw.requests.length;
    gw.script({ kind: 'reply', text: 'first reply', headersDelayMs: 800 });
    const first = s.api('/api/chat', {
      json: { conversationId: id, messages: [{ role: 'user', content: 'first' }] },
    });
    await eventually(() => gw.requests.length > before, 'the first turn to reach the gateway');
    const second = await s.api('/api/chat', {
      json: { conversationId: id, messages: [{ role: 'user', content: 'second' }] },
    });
    expect(second.status).toBe(409);
    const streamed = await readSse(`${s.url}/api/chat`, {
      body: { stream: true, conversationId: id, messages: [{ role: 'user', content: 'second streamed' }] },
    });
    expect(streamed.status).toBe(409);
    expect(contents((await conversation(id)).messages)).toEqual(['user:first']);
    expect((await first).status).toBe(200);
    expect(contents((await conversation(id)).messages)).toEqual(['user:first', 'assistant:first reply']);
    expect(gw.requests.length).toBe(before + 1);
    // the lock is released with the turn
    gw.script({ kind: 'reply', text: 'second reply' });
    const third = await s.api('/api/chat', {
      json: { conversationId: id, messages: [{ role: 'user', content: 'second' }] },
    });
    expect(third.status).toBe(200);
  });
});

describe('capped replies', () => {
  it('a capped reply is stored with capped: true', async () => {
    const other = await bootChat({ CHAT_MAX_TURNS: '1' });
    try {
      const id = (await other.s.api('/api/conversations', { json: { title: 'capped' } })).body.conversation
        .id;
      other.gw.script({
        kind: 'reply',
        text: 'Checking your cards.',
        toolCalls: [{ id: 'l1', name: 'list_manifests', arguments: {} }],
      });
      const r = await other.s.api('/api/chat', {
        json: { conversationId: id, messages: [{ role: 'user', content: 'do a lot' }] },
      });
      expect(r.status).toBe(200);
      expect(r.body.capped).toBe(true);
      const last = (await other.s.api(`/api/conversations/${id}`)).body.conversation.messages.at(-1);
      expect(last).toMatchObject({ role: 'assistant', content: r.body.reply, capped: true });
      expect(last.hasVoice).toBeUndefined();
    } finally {
      await other.close();
    }
  });
});

describe('titles from a side call', () => {
  it('an untitled conversation is titled after its first exchange: quotes stripped, at most 60 characters', async () => {
    const id = await newConversation({});
    const raw = 'Resting Heart Rate Trends Over The Last Couple Of Very Long Months';
    gw.script(
      { kind: 'reply', text: 'Your resting heart rate averaged 58.' },
      { kind: 'reply', text: `  "${raw}."  ` },
    );
    const r = await s.api('/api/chat', {
      json: { conversationId: id, messages: [{ role: 'user', content: 'resting HR?' }] },
    });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ reply: 'Your resting heart rate averaged 58.' });
    await eventually(async () => (await conversation(id)).title !== null, 'the title to be set');
    const title = (await conversation(id)).title as string;
    expect(title).toBe(raw.slice(0, 60).trim());
    expect([...title].length).toBeLessThanOrEqual(60);
    expect(title).not.toMatch(/["“”]/);
    // the side call carried the first message and the reply, and no tools
    const call = gw.requests.find(
      (q) => isTitleCall(q.body) && JSON.stringify(q.body).includes('resting HR?'),
    );
    expect(call).toBeDefined();
    const userText = call?.body.messages.at(-1).content as string;
    expect(userText).toContain('resting HR?');
    expect(userText).toContain('Your resting heart rate averaged 58.');
    expect(call?.body.tools).toBeUndefined();
    // a titled conversation is not titled again
    const count = gw.requests.length;
    gw.script({ kind: 'reply', text: 'again' });
    await s.api('/api/chat', { json: { conversationId: id, messages: [{ role: 'user', content: 'more' }] } });
    await sleep(200);
    expect(gw.requests.length).toBe(count + 1);
    expect((await conversation(id)).title).toBe(title);
  });

  it('curly quotes are stripped too', async () => {
    const id = await newConversation({});
    gw.script({ kind: 'reply', text: 'Sure.' }, { kind: 'reply', text: '“Sleep Trends”' });
    await s.api('/api/chat', {
      json: { conversationId: id, messages: [{ role: 'user', content: 'sleep?' }] },
    });
    await eventually(async () => (await conversation(id)).title !== null, 'the title to be set');
    expect((await conversation(id)).title).toBe('Sleep Trends');
  });

  it('a failing title call leaves the conversation untitled without failing the turn; a later turn retries', async () => {
    const id = await newConversation({});
    gw.script(
      { kind: 'reply', text: 'Logged 5 km.' },
      { kind: 'error', status: 500, body: { error: { message: 'title model down' } } },
    );
    const r = await s.api('/api/chat', {
      json: { conversationId: id, messages: [{ role: 'user', content: 'ran 5 km' }] },
    });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ reply: 'Logged 5 km.' });
    await eventually(
      () =>
        gw.remaining === 0 &&
        gw.requests.some((q) => isTitleCall(q.body) && q.body.messages.at(-1).content.includes('ran 5 km')),
      'the title call',
    );
    await sleep(200);
    const c = await conversation(id);
    expect(c.title).toBeNull();
    expect(contents(c.messages)).toEqual(['user:ran 5 km', 'assistant:Logged 5 km.']);

    gw.script({ kind: 'reply', text: 'Logged 3 km.' }, { kind: 'reply', text: 'Running Log' });
    const r2 = await s.api('/api/chat', {
      json: { conversationId: id, messages: [{ role: 'user', content: 'ran 3 km' }] },
    });
    expect(r2.status).toBe(200);
    await eventually(async () => (await conversation(id)).title === 'Running Log', 'the retried title');
  });

  it('a turn that ends in an error makes no title call', async () => {
    const id = await newConversation({});
    const before = gw.requests.length;
    gw.script({ kind: 'error', status: 400, body: { error: { message: 'nope' } } });
    await s.api('/api/chat', { json: { conversationId: id, messages: [{ role: 'user', content: 'x' }] } });
    await sleep(200);
    expect(gw.requests.length).toBe(before + 1);
    expect((await conversation(id)).title).toBeNull();
  });
});
