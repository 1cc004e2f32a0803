// Reattach to a detached conversation turn (docs/CHAT-AGENT.md "Detached turns and reattach";
// docs/API.md "Reattach to a turn"): a client that went away mid-turn gets every missed event exactly once from
// `GET /api/chat/turn/:id` with Last-Event-ID or ?after=N, live until done; any number of streams
// see the same events; 204 when nothing runs.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ScriptedGateway } from '../helpers/scripted-gateway.js';
import type { TestServer } from '../helpers/server.js';
import type { ReceivedEvent } from '../helpers/sse-client.js';
import { bootChat, eventually, readSse, tokenText } from './conv-helpers.js';

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
  await eventually(() => gw.remaining === 0, 'the script to be used up', 5_000);
  await eventually(
    () => s.inst.conversations.list().every((c) => !s.inst.turns.isRunning(c.id)),
    'turns to end',
  );
});

const newConversation = async () =>
  (await s.api('/api/conversations', { json: { title: 'reattach' } })).body.conversation.id as string;
const hubIds = (id: string) => (s.inst.turns.get(id)?.events ?? []).map((e) => String(e.id));
const ids = (events: ReceivedEvent[]) => events.map((e) => e.id as string);
const REPLY = 'One two three four five six seven.';
const slowReply = () => ({
  kind: 'reply' as const,
  chunks: ['One ', 'two ', 'three ', 'four ', 'five ', 'six ', 'seven.'],
  chunkDelayMs: 120,
});

/** Starts a streamed conversation turn and leaves after its first token. */
async function leaveAfterFirstToken(id: string, content: string) {
  const first = await readSse(
    `${s.url}/api/chat`,
    { body: { stream: true, conversationId: id, messages: [{ role: 'user', content }] } },
    { stopWhen: (e) => e.event === 'token' },
  );
  expect(first.status).toBe(200);
  expect(first.aborted).toBe(true);
  expect(first.events.at(-1)?.event).toBe('token');
  expect(first.events.some((e) => e.event === 'done')).toBe(false);
  return first;
}

/** The whole-turn checks: every event exactly once, in order, text assembled equals the reply. */
async function expectSeamless(id: string, first: ReceivedEvent[], second: ReceivedEvent[]) {
  const all = [...first, ...second];
  // nothing twice, in increasing order
  expect(new Set(ids(all)).size).toBe(all.length);
  const nums = ids(all).map(Number);
  for (let i = 1; i < nums.length; i++) expect(nums[i]).toBeGreaterThan(nums[i - 1]);
  // nothing missing: the hub's own log (the turn still lingers) is exactly what the client has
  expect(ids(all)).toEqual(hubIds(id));
  expect(second.at(-1)?.event).toBe('done');
  expect(all.filter((e) => e.event === 'done')).toHaveLength(1);
  expect(all.filter((e) => e.event === 'reply')).toHaveLength(1);
  expect(all.find((e) => e.event === 'reply')?.data).toEqual({ reply: REPLY });
  expect(tokenText(first) + tokenText(second)).toBe(REPLY);
  // the reply is stored too (the disconnect was no stop)
  const conv = (await s.api(`/api/conversations/${id}`)).body.conversation;
  expect(conv.messages.at(-1)).toMatchObject({ role: 'assistant', content: REPLY });
}

describe('GET /api/chat/turn/:conversationId', () => {
  it('with Last-Event-ID: every missed event once through done, no duplicates of what was received', async () => {
    const id = await newConversation();
    gw.script(slowReply());
    const first = await leaveAfterFirstToken(id, 'count to seven');
    // wait until some events were missed, but the turn still runs (replay, then live)
    await eventually(
      () => (s.inst.turns.get(id)?.events.length ?? 0) >= first.events.length + 2,
      'missed events',
    );
    expect(s.inst.turns.isRunning(id)).toBe(true);
    const second = await readSse(`${s.url}/api/chat/turn/${id}`, {
      headers: { 'Last-Event-ID': first.events.at(-1)?.id as string },
    });
    expect(second.status).toBe(200);
    expect(second.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(Number(second.events[0].id)).toBeGreaterThan(Number(first.events.at(-1)?.id));
    await expectSeamless(id, first.events, second.events);
  });

  it('with ?after=N: the same', async () => {
    const id = await newConversation();
    gw.script(slowReply());
    const first = await leaveAfterFirstToken(id, 'count again');
    await eventually(
      () => (s.inst.turns.get(id)?.events.length ?? 0) >= first.events.length + 1,
      'missed events',
    );
    const second = await readSse(`${s.url}/api/chat/turn/${id}?after=${first.events.at(-1)?.id}`);
    expect(second.status).toBe(200);
    await expectSeamless(id, first.events, second.events);
  });

  it('reattaching after done (within the linger) replays the rest and ends', async () => {
    const id = await newConversation();
    gw.script(slowReply());
    const first = await leaveAfterFirstToken(id, 'and once more');
    await eventually(() => !s.inst.turns.isRunning(id), 'the turn to finish');
    const second = await readSse(`${s.url}/api/chat/turn/${id}`, {
      headers: { 'Last-Event-ID': first.events.at(-1)?.id as string },
    });
    expect(second.status).toBe(200);
    await expectSeamless(id, first.events, second.events);
    // without an id: the whole turn from its start
    const whole = await readSse(`${s.url}/api/chat/turn/${id}`);
    expect(ids(whole.events)).toEqual(hubIds(id));
    expect(tokenText(whole.events)).toBe(REPLY);
  });

  it('two attached streams see the same events (a buffered request’s turn is kept with ids as well)', async () => {
    const id = await newConversation();
    const before = gw.requests.length;
    gw.script({ kind: 'reply', text: REPLY, headersDelayMs: 500 });
    const buffered = s.api('/api/chat', {
      json: { conversationId: id, messages: [{ role: 'user', content: 'buffered' }] },
    });
    await eventually(() => gw.requests.length > before, 'the turn to reach the gateway');
    const [a, b] = await Promise.all([
      readSse(`${s.url}/api/chat/turn/${id}`),
      readSse(`${s.url}/api/chat/turn/${id}`),
    ]);
    expect((await buffered).body).toEqual({ reply: REPLY });
    expect(a.status).toBe(200);
    expect(a.events.map((e) => e.event)).toEqual(['status', 'reply', 'done']);
    expect(b.events).toEqual(a.events);
    expect(a.events.every((e) => /^\d+$/.test(e.id ?? ''))).toBe(true);
  });

  it('two streams attached mid-stream of a streamed turn see the same events as the original client', async () => {
    const id = await newConversation();
    gw.script(slowReply());
    let readers: Promise<Awaited<ReturnType<typeof readSse>>[]> | undefined;
    const original = await readSse(
      `${s.url}/api/chat`,
      { body: { stream: true, conversationId: id, messages: [{ role: 'user', content: 'watch me' }] } },
      {
        onEvent: (e) => {
          if (e.event === 'token' && !readers) {
            readers = Promise.all([
              readSse(`${s.url}/api/chat/turn/${id}`),
              readSse(`${s.url}/api/chat/turn/${id}`),
            ]);
          }
        },
      },
    );
    const [a, b] = (await readers) as Awaited<ReturnType<typeof readSse>>[];
    expect(a.events).toEqual(original.events);
    expect(b.events).toEqual(original.events);
    expect(tokenText(a.events)).toBe(REPLY);
  });

  it('204 for a conversation that never had a turn, and for an unknown id', async () => {
    const id = await newConversation();
    const r = await s.api(`/api/chat/turn/${id}`);
    expect(r.status).toBe(204);
    expect(r.text).toBe('');
    expect((await s.api('/api/chat/turn/never-existed')).status).toBe(204);
    expect((await s.api(`/api/chat/turn/${id}`, { headers: { 'Last-Event-ID': '5' } })).status).toBe(204);
  });

  it('a Last-Event-ID that is not a number is 400', async () => {
    const id = await newConversation();
    gw.script({ kind: 'reply', text: 'x', headersDelayMs: 300 });
    const pending = s.api('/api/chat', {
      json: { conversationId: id, messages: [{ role: 'user', content: 'x' }] },
    });
    await eventually(() => s.inst.turns.isRunning(id), 'the turn to run');
    expect((await s.api(`/api/chat/turn/${id}`, { headers: { 'Last-Event-ID': 'abc' } })).status).toBe(400);
    expect((await s.api(`/api/chat/turn/${id}?after=-1`)).status).toBe(400);
    await pending;
  });
});
