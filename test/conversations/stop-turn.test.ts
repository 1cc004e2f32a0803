// Stopping a conversation turn (docs/CHAT-AGENT.md "Detached turns and reattach"; docs/API.md
// `DELETE /api/chat/turn/:conversationId`): `{ok:true}`, the stream ends with `stopped` then
// `done`, a buffered caller gets `{stopped:true}`, the user's message stays, no reply is stored,
// the lock is released; 404 when nothing runs. A client going away is never a stop.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ScriptedGateway } from '../helpers/scripted-gateway.js';
import type { TestServer } from '../helpers/server.js';
import { bootChat, eventually, readSse, sleep, tokenText } from './conv-helpers.js';

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
  (await s.api('/api/conversations', { json: { title: 'stop' } })).body.conversation.id as string;
// biome-ignore lint/suspicious/noExplicitAny: JSON bodies
const messagesOf = async (id: string): Promise<any[]> =>
  (await s.api(`/api/conversations/${id}`)).body.conversation.messages;
const contents = (msgs: { role: string; content: string }[]) => msgs.map((m) => `${m.role}:${m.content}`);

describe('DELETE /api/chat/turn/:conversationId', () => {
  it('stops a streamed turn mid-answer: {ok:true}, stopped then done, the user’s message stays, no reply, a new turn right away', async () => {
    const id = await newConversation();
    const before = gw.requests.length;
    // the model starts answering, then goes quiet
    gw.script({ kind: 'stall', afterText: 'Let me think about ' });
    const stream = readSse(`${s.url}/api/chat`, {
      body: { stream: true, conversationId: id, messages: [{ role: 'user', content: 'a hard question' }] },
    });
    await eventually(
      () => (s.inst.turns.get(id)?.events ?? []).some((e) => e.event.type === 'token'),
      'the first tokens',
    );
    expect(gw.requests.length).toBe(before + 1);
    const del = await s.api(`/api/chat/turn/${id}`, { method: 'DELETE' });
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ ok: true });
    const r = await stream;
    const names = r.events.map((e) => e.event);
    expect(names.slice(-2)).toEqual(['stopped', 'done']);
    expect(names).not.toContain('reply');
    expect(names).not.toContain('error');
    expect(tokenText(r.events)).toBe('Let me think about ');
    expect(r.events.at(-2)?.data).toEqual({});
    expect(contents(await messagesOf(id))).toEqual(['user:a hard question']);

    // the lock is released: a new turn is accepted at once
    gw.script({ kind: 'reply', text: 'Here is an easier answer.' });
    const next = await s.api('/api/chat', {
      json: { conversationId: id, messages: [{ role: 'user', content: 'try again' }] },
    });
    expect(next.status).toBe(200);
    expect(contents(await messagesOf(id))).toEqual([
      'user:a hard question',
      'user:try again',
      'assistant:Here is an easier answer.',
    ]);
  });

  it('a new turn is accepted as soon as the DELETE has answered', async () => {
    const id = await newConversation();
    gw.script({ kind: 'stall' });
    const stream = readSse(`${s.url}/api/chat`, {
      body: { stream: true, conversationId: id, messages: [{ role: 'user', content: 'first' }] },
    });
    await eventually(
      () => (s.inst.turns.get(id)?.events ?? []).length > 0 && gw.remaining === 0,
      'the turn at the gateway',
    );
    expect((await s.api(`/api/chat/turn/${id}`, { method: 'DELETE' })).status).toBe(200);
    gw.script({ kind: 'reply', text: 'second answer' });
    const next = await s.api('/api/chat', {
      json: { conversationId: id, messages: [{ role: 'user', content: 'second' }] },
    });
    expect(next.status).toBe(200);
    expect(next.body).toEqual({ reply: 'second answer' });
    await stream;
  });

  it('a buffered caller gets {stopped: true}', async () => {
    const id = await newConversation();
    gw.script({ kind: 'reply', text: 'too late', headersDelayMs: 5_000 });
    const pending = s.api('/api/chat', {
      json: { conversationId: id, messages: [{ role: 'user', content: 'slow one' }] },
    });
    await eventually(() => gw.remaining === 0 && s.inst.turns.isRunning(id), 'the turn at the gateway');
    const del = await s.api(`/api/chat/turn/${id}`, { method: 'DELETE' });
    expect(del.body).toEqual({ ok: true });
    const r = await pending;
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ stopped: true });
    expect(contents(await messagesOf(id))).toEqual(['user:slow one']);
    // the turn's log ends with stopped, done
    expect(
      s.inst.turns
        .get(id)
        ?.events.map((e) => e.event.type)
        .slice(-2),
    ).toEqual(['stopped', 'done']);
    // and the late step never turns into a stored reply
    await sleep(300);
    expect(contents(await messagesOf(id))).toEqual(['user:slow one']);
  });

  it('an attached stream of a stopped turn ends with stopped then done too', async () => {
    const id = await newConversation();
    gw.script({ kind: 'stall' });
    const pending = s.api('/api/chat', {
      json: { conversationId: id, messages: [{ role: 'user', content: 'watch' }] },
    });
    await eventually(() => gw.remaining === 0 && s.inst.turns.isRunning(id), 'the turn at the gateway');
    const watcher = readSse(`${s.url}/api/chat/turn/${id}`);
    await eventually(() => (s.inst.turns.get(id)?.listeners.size ?? 0) > 0, 'the watcher to attach');
    await s.api(`/api/chat/turn/${id}`, { method: 'DELETE' });
    const w = await watcher;
    expect(w.events.map((e) => e.event)).toEqual(['status', 'stopped', 'done']);
    expect((await pending).body).toEqual({ stopped: true });
  });

  it('404 when nothing runs: never had a turn, finished (lingering) turn, unknown id', async () => {
    const id = await newConversation();
    const none = await s.api(`/api/chat/turn/${id}`, { method: 'DELETE' });
    expect(none.status).toBe(404);
    gw.script({ kind: 'reply', text: 'done already' });
    await s.api('/api/chat', {
      json: { conversationId: id, messages: [{ role: 'user', content: 'quick' }] },
    });
    expect(s.inst.turns.get(id)?.done).toBe(true);
    expect((await s.api(`/api/chat/turn/${id}`, { method: 'DELETE' })).status).toBe(404);
    expect((await s.api('/api/chat/turn/unknown-conversation', { method: 'DELETE' })).status).toBe(404);
    // the finished turn's reply is untouched
    expect(contents(await messagesOf(id))).toEqual(['user:quick', 'assistant:done already']);
  });
});

describe('deleting the conversation of a running turn', () => {
  it('stops the turn (stopped, done), removes the conversation, and nothing is stored afterwards', async () => {
    const id = await newConversation();
    gw.script({ kind: 'stall', afterText: 'Some ' });
    const stream = readSse(`${s.url}/api/chat`, {
      body: { stream: true, conversationId: id, messages: [{ role: 'user', content: 'doomed' }] },
    });
    await eventually(
      () => (s.inst.turns.get(id)?.events ?? []).some((e) => e.event.type === 'token'),
      'the first tokens',
    );
    expect((await s.api(`/api/conversations/${id}`, { method: 'DELETE' })).status).toBe(200);
    const r = await stream;
    expect(r.events.map((e) => e.event).slice(-2)).toEqual(['stopped', 'done']);
    expect((await s.api(`/api/conversations/${id}`)).status).toBe(404);
    expect(
      s.inst.db
        .prepare('SELECT count(*) FROM conversation_messages WHERE conversation_id = ?')
        .pluck()
        .get(id),
    ).toBe(0);
    const again = await s.api('/api/chat', {
      json: { conversationId: id, messages: [{ role: 'user', content: 'x' }] },
    });
    expect(again.status).toBe(404);
  });
});

describe('a client disconnect is never a stop', () => {
  it('a streamed client that goes away: the turn completes and the reply is stored', async () => {
    const id = await newConversation();
    gw.script({ kind: 'reply', chunks: ['Still ', 'working ', 'without ', 'you.'], chunkDelayMs: 100 });
    const r = await readSse(
      `${s.url}/api/chat`,
      { body: { stream: true, conversationId: id, messages: [{ role: 'user', content: 'going away' }] } },
      { stopWhen: (e) => e.event === 'token' },
    );
    expect(r.aborted).toBe(true);
    await eventually(() => !s.inst.turns.isRunning(id), 'the turn to finish');
    const log = s.inst.turns.get(id)?.events.map((e) => e.event.type) ?? [];
    expect(log).not.toContain('stopped');
    expect(log.slice(-2)).toEqual(['reply', 'done']);
    expect(contents(await messagesOf(id))).toEqual([
      'user:going away',
      'assistant:Still working without you.',
    ]);
  });

  it('a buffered client that goes away: the turn completes and the reply is stored', async () => {
    const id = await newConversation();
    gw.script({ kind: 'reply', text: 'Stored anyway.', headersDelayMs: 400 });
    const ctl = new AbortController();
    const req = fetch(`${s.url}/api/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        conversationId: id,
        messages: [{ role: 'user', content: 'buffered and gone' }],
      }),
      signal: ctl.signal,
    }).catch(() => undefined);
    await eventually(() => gw.remaining === 0 && s.inst.turns.isRunning(id), 'the turn at the gateway');
    ctl.abort();
    await req;
    await eventually(() => !s.inst.turns.isRunning(id), 'the turn to finish');
    expect(s.inst.turns.get(id)?.events.map((e) => e.event.type)).toEqual(['status', 'reply', 'done']);
    expect(contents(await messagesOf(id))).toEqual(['user:buffered and gone', 'assistant:Stored anyway.']);
  });
});
