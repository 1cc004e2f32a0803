// Voice mode through POST /api/chat (voice turns emit no token
// events, the reply event carries {reply, speak}; "Prompt caching": the voice envelope goes in
// front of the static text; docs/CHAT-AGENT.md "Voice envelope": literal
// newlines inside the JSON strings must still parse).
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { VOICE_ENVELOPE } from '../../src/chat/prompt/voice.js';
import { type ScriptedGateway, startScriptedGateway } from '../helpers/scripted-gateway.js';
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

const say = (content: string, extra: Record<string, unknown> = {}) => ({
  messages: [{ role: 'user', content }],
  voiceMode: true,
  ...extra,
});

const ENVELOPE = '{"speak":"Logged it.","display":"Logged **85 kg**."}';
/** An envelope whose display string holds a raw line break (not the two characters \n). */
const ENVELOPE_RAW_NEWLINE =
  '{"speak":"Logged it.","display":"Logged **85 kg**.\nDown 0.4 kg since Monday."}';

/** Cuts a text into small pieces so the envelope arrives across many SSE chunks. */
function pieces(text: string, size = 7): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

describe('voiceMode: true, streamed', () => {
  it('emits no token events; the reply event is {reply: display, speak}', async () => {
    gw.script({ kind: 'reply', chunks: pieces(ENVELOPE) });
    const r = await postSse(`${s.url}/api/chat`, { stream: true, ...say('log 85 kg') });
    expect(r.status).toBe(200);
    const names = r.events.map((e) => e.event);
    expect(names).not.toContain('token');
    expect(names).toEqual(['status', 'reply', 'done']);
    expect(r.events[1].data).toEqual({ reply: 'Logged **85 kg**.', speak: 'Logged it.' });
  });

  it('a literal newline inside the display string still parses', async () => {
    gw.script({ kind: 'reply', chunks: pieces(ENVELOPE_RAW_NEWLINE) });
    const r = await postSse(`${s.url}/api/chat`, { stream: true, ...say('log 85 kg') });
    expect(r.events.some((e) => e.event === 'token')).toBe(false);
    expect(r.events.at(-2)).toMatchObject({
      event: 'reply',
      data: { reply: 'Logged **85 kg**.\nDown 0.4 kg since Monday.', speak: 'Logged it.' },
    });
  });

  it('status events still flow through tool calls, with no token or reset events', async () => {
    gw.script(
      {
        kind: 'reply',
        chunks: ['Let me ', 'check.'],
        toolCalls: [{ id: 'v1', name: 'list_manifests', arguments: {} }],
      },
      {
        kind: 'reply',
        chunks: pieces('{"speak":"You have no cards yet.","display":"You have **no cards** yet."}'),
      },
    );
    const r = await postSse(`${s.url}/api/chat`, { stream: true, ...say('what cards do I have?') });
    const names = r.events.map((e) => e.event);
    expect(names).toEqual(['status', 'status', 'status', 'reply', 'done']);
    expect(r.events[1].data).toEqual({ phase: 'tool', tool: 'list_manifests' });
    expect(r.events[3].data).toEqual({
      reply: 'You have **no cards** yet.',
      speak: 'You have no cards yet.',
    });
  });

  it('the envelope after some prose is still found (the last envelope wins)', async () => {
    gw.script({ kind: 'reply', chunks: pieces(`Sure.\n${ENVELOPE}`) });
    const r = await postSse(`${s.url}/api/chat`, { stream: true, ...say('log 85 kg') });
    expect(r.events.at(-2)?.data).toEqual({ reply: 'Logged **85 kg**.', speak: 'Logged it.' });
  });
});

describe('voiceMode: true, buffered', () => {
  it('answers the same {reply, speak} shape', async () => {
    gw.script({ kind: 'reply', text: ENVELOPE_RAW_NEWLINE });
    const r = await s.api('/api/chat', { json: say('log 85 kg') });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ reply: 'Logged **85 kg**.\nDown 0.4 kg since Monday.', speak: 'Logged it.' });
  });

  it('a reply with no envelope: display is the text and speak is the text without emoji or markdown', async () => {
    gw.script({ kind: 'reply', text: 'Logged **85 kg** 🎉' });
    const r = await s.api('/api/chat', { json: say('log 85 kg') });
    expect(r.status).toBe(200);
    expect(r.body.reply).toBe('Logged **85 kg** 🎉');
    expect(r.body.speak).not.toMatch(/🎉|\*\*/);
    expect(r.body.speak).toContain('85 kg');
  });
});

describe('the voice system prompt', () => {
  it("the system message's first part starts with the voice envelope, then the text-mode static text; the other parts are unchanged", async () => {
    gw.script({ kind: 'reply', text: 'Hello.' }, { kind: 'reply', chunks: pieces(ENVELOPE) });
    await s.api('/api/chat', { json: { messages: [{ role: 'user', content: 'hi' }] } });
    await postSse(`${s.url}/api/chat`, { stream: true, ...say('hi') });
    const [text, voice] = gw.requests.slice(-2).map((q) => q.body.messages[0].content);
    expect(voice[0].text.startsWith(VOICE_ENVELOPE)).toBe(true);
    expect(voice[0].text.endsWith(text[0].text)).toBe(true);
    expect(text[0].text).not.toContain(VOICE_ENVELOPE);
    expect(voice[0].cache_control).toEqual({ type: 'ephemeral' });
    expect(voice[1]).toEqual(text[1]);
    expect(voice[2]).toEqual(text[2]);
  });
});

describe('voice replies that are not the model talking still carry speak', () => {
  let gw2: ScriptedGateway;
  let s2: TestServer;
  beforeAll(async () => {
    gw2 = await startScriptedGateway();
    s2 = await startServer({
      env: {
        CHAT_ENDPOINT_URL: gw2.url,
        CHAT_API_KEY: 'sk-test',
        CHAT_MODEL: 'test-model',
        CHAT_MAX_TURNS: '1',
        CHAT_ITER_TIMEOUT_MS: '300',
        CHAT_TURN_DEADLINE_MS: '1500',
      },
    });
  });
  afterAll(async () => {
    await s2.close();
    await gw2.close();
  });

  it('capped (round-trip cap hit): {reply, speak, capped}', async () => {
    gw2.script({ kind: 'reply', toolCalls: [{ id: 'x1', name: 'list_manifests', arguments: {} }] });
    const r = await s2.api('/api/chat', { json: say('set it all up') });
    expect(r.status).toBe(200);
    expect(r.body.capped).toBe(true);
    expect(typeof r.body.speak).toBe('string');
    expect(r.body.speak).toMatch(/keep going/i);
  });

  it('timed out (step past its budget): {reply, speak, timedOut}', async () => {
    gw2.script({ kind: 'stall' });
    const r = await postSse(`${s2.url}/api/chat`, { stream: true, ...say('how is my weight?') });
    const reply = r.events.at(-2);
    expect(reply?.event).toBe('reply');
    expect(reply?.data.timedOut).toBe(true);
    expect(typeof reply?.data.speak).toBe('string');
    expect(reply?.data.speak.length).toBeGreaterThan(0);
  });

  it('empty model reply: the "No answer came back" copy is also given as speak', async () => {
    gw2.script({ kind: 'reply', text: '' }, { kind: 'reply', text: '' });
    const r = await s2.api('/api/chat', { json: say('how is my weight?') });
    expect(r.status).toBe(200);
    expect(r.body.reply).toMatch(/No answer came back/);
    expect(r.body.speak).toMatch(/No answer came back/);
  });
});
