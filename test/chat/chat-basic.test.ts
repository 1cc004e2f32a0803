import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { contentText, type ScriptedGateway, startScriptedGateway } from '../helpers/scripted-gateway.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { postSse } from '../helpers/sse-client.js';

let gw: ScriptedGateway;
let s: TestServer;
beforeAll(async () => {
  gw = await startScriptedGateway();
  s = await startServer({
    env: { CHAT_ENDPOINT_URL: gw.url, CHAT_API_KEY: 'sk-test', CHAT_MODEL: 'test-model' },
  });
});
afterAll(async () => {
  await s.close();
  await gw.close();
});
afterEach(() => {
  expect(gw.remaining).toBe(0);
});

const weightCard = {
  $schema: 'klebb.datafile.v1',
  meta: {
    id: 'weight',
    label: 'Weight',
    writeable: { fromWebapp: true, inputs: [{ key: 'kg', type: 'number' }] },
  },
  data: [],
};

describe('POST /api/chat (buffered)', () => {
  it('runs tools across round-trips and answers; the card holds the row', async () => {
    gw.script(
      {
        kind: 'reply',
        toolCalls: [{ id: 'c1', name: 'create_manifest', arguments: { manifest: weightCard } }],
      },
      {
        kind: 'reply',
        toolCalls: [
          {
            id: 'c2',
            name: 'append_row',
            arguments: { id: 'weight', value: { date: '2026-04-20', kg: 85.5 } },
          },
        ],
      },
      { kind: 'reply', text: 'Logged **85.5 kg** for 20 April.' },
    );
    const r = await s.api('/api/chat', {
      json: { messages: [{ role: 'user', content: 'log 85.5 kg for April 20' }] },
    });
    expect(r.status).toBe(200);
    // the turn's writes are one change set the reply names, so the person can undo them
    expect(r.body).toEqual({
      reply: 'Logged **85.5 kg** for 20 April.',
      changeSet: {
        id: expect.any(Number),
        summary: 'Created Weight, added 1 row to Weight, edited Welcome to Klebb',
      },
    });
    expect((await s.api('/api/manifests/weight/data')).body.data).toEqual([{ date: '2026-04-20', kg: 85.5 }]);
    // what we sent: model, tools, auto tool choice, the assistant tool_calls replayed before the tool results
    const [first, second, third] = gw.requests.slice(-3).map((q) => q.body);
    expect(first.model).toBe('test-model');
    expect(first.tool_choice).toBe('auto');
    expect(first.tools.map((t: { function: { name: string } }) => t.function.name)).toContain('append_row');
    expect(gw.requests.at(-1)?.headers.authorization).toBe('Bearer sk-test');
    const assistant = second.messages.at(-2);
    // the id sent back is Klebb's own, not the provider's 'c1'
    expect(assistant).toMatchObject({
      role: 'assistant',
      tool_calls: [{ id: expect.stringMatching(/^[A-Za-z0-9]{9}$/), type: 'function' }],
    });
    expect(second.messages.at(-1)).toMatchObject({ role: 'tool', tool_call_id: assistant.tool_calls[0].id });
    expect(JSON.parse(contentText(second.messages.at(-1).content))).toMatchObject({ ok: true, id: 'weight' });
    expect(JSON.parse(contentText(third.messages.at(-1).content))).toMatchObject({
      ok: true,
      added: 1,
      totalAfter: 1,
    });
  });

  it('a tool that fails returns {error} to the model and the turn goes on', async () => {
    gw.script(
      { kind: 'reply', toolCalls: [{ id: 'x1', name: 'read_manifest_meta', arguments: { id: 'nope' } }] },
      { kind: 'reply', text: 'There is no such card.' },
    );
    const r = await s.api('/api/chat', { json: { messages: [{ role: 'user', content: 'show nope' }] } });
    expect(r.body.reply).toBe('There is no such card.');
    const toolMsg = gw.requests.at(-1)?.body.messages.at(-1);
    expect(JSON.parse(contentText(toolMsg.content))).toMatchObject({
      error: expect.stringContaining('nope'),
      code: 'CARD_NOT_FOUND',
    });
  });

  it('400 without messages, and 400 for a bad role', async () => {
    expect((await s.api('/api/chat', { json: {} })).status).toBe(400);
    expect((await s.api('/api/chat', { json: { messages: [] } })).status).toBe(400);
    const bad = await s.api('/api/chat', { json: { messages: [{ role: 'system', content: 'x' }] } });
    expect(bad.status).toBe(400);
    expect(bad.body.details[0].path).toBe('body.messages[0].role');
  });
});

describe('POST /api/chat (stream: true)', () => {
  it('emits status, token, reset, reply and done with ids, and the SSE headers', async () => {
    gw.script(
      {
        kind: 'reply',
        chunks: ['Let me ', 'check.'],
        toolCalls: [{ id: 't1', name: 'list_manifests', arguments: {} }],
      },
      { kind: 'reply', chunks: ['You have ', 'two cards.'] },
    );
    const r = await postSse(`${s.url}/api/chat`, {
      stream: true,
      messages: [{ role: 'user', content: 'what cards?' }],
    });
    expect(r.status).toBe(200);
    expect(r.headers.get('x-accel-buffering')).toBe('no');
    expect(r.headers.get('content-encoding')).toBeNull();
    const names = r.events.map((e) => e.event);
    expect(names).toEqual([
      'status',
      'token',
      'token',
      'reset',
      'status',
      'status',
      'token',
      'token',
      'reply',
      'done',
    ]);
    expect(r.events[0].data).toEqual({ phase: 'thinking' });
    expect(r.events[4].data).toEqual({ phase: 'tool', tool: 'list_manifests' });
    expect(r.events.map((e) => Number(e.id))).toEqual(names.map((_, i) => i + 1));
    expect(r.events.at(-2)?.data).toEqual({ reply: 'You have two cards.' });
  });

  it('errors before the stream opens stay JSON', async () => {
    const r = await postSse(`${s.url}/api/chat`, { stream: true, messages: [] });
    expect(r.status).toBe(400);
    expect(r.events[0].event).toBe('json');
  });
});

describe('chat not configured', () => {
  it('GET /api/chat/status says so and POST /api/chat is 503', async () => {
    const off = await startServer();
    try {
      expect((await off.api('/api/chat/status')).body).toEqual({ configured: false });
      const r = await off.api('/api/chat', { json: { messages: [{ role: 'user', content: 'hi' }] } });
      expect(r.status).toBe(503);
    } finally {
      await off.close();
    }
    expect((await s.api('/api/chat/status')).body).toEqual({ configured: true });
  });
});
