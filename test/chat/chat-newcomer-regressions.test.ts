/**
 * Regressions from a newcomer's pass over the chat docs with a fake model (one `it` per finding).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type ScriptedGateway, startScriptedGateway } from '../helpers/scripted-gateway.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { postSse } from '../helpers/sse-client.js';

let gw: ScriptedGateway;
let s: TestServer;
beforeEach(async () => {
  gw = await startScriptedGateway();
  s = await startServer({
    env: { CHAT_ENDPOINT_URL: gw.url, CHAT_ITER_TIMEOUT_MS: '400', CHAT_TURN_DEADLINE_MS: '1200' },
  });
});
afterEach(async () => {
  await s.close();
  await gw.close();
});
const hi = { messages: [{ role: 'user', content: 'hi' }] };

describe('chat newcomer regressions', () => {
  it('a very long search needle is a 400, not a 500', async () => {
    const r = await s.api('/api/conversations/search', { json: { q: 'a'.repeat(50_000) } });
    expect(r.status).toBe(400);
  });

  it('markup in a provider error message never reaches the person', async () => {
    gw.script({
      kind: 'error',
      status: 400,
      body: { error: { message: '<html><body>Bad <b>model</b> at /srv/app.py line 12</body></html>' } },
    });
    const r = await s.api('/api/chat', { json: hi });
    expect(r.status).toBe(502);
    expect(r.body.error).not.toMatch(/<[a-z/]/i);
    expect(r.body.error).toContain('Bad model');
  });

  it('text already streamed is kept when the turn deadline stops it', async () => {
    gw.script({
      kind: 'reply',
      chunks: ['Your week ', 'looks ', 'steady ', 'so ', 'far ', 'and '],
      chunkDelayMs: 300,
    });
    const r = await postSse(`${s.url}/api/chat`, { ...hi, stream: true });
    const reply = r.events.find((e) => e.event === 'reply')?.data;
    expect(reply.capped).toBe(true);
    expect(reply.reply).toMatch(/^Your week looks/);
    expect(reply.reply).toContain('keep going');
  });

  it('an answer the model stopped at its length limit says it was cut off, streamed or not', async () => {
    gw.script({
      kind: 'reply',
      chunks: ['Your resting heart rate went ', 'down by'],
      finishReason: 'length',
    });
    const r = await postSse(`${s.url}/api/chat`, { ...hi, stream: true });
    const reply = r.events.find((e) => e.event === 'reply')?.data;
    expect(reply.reply).toBe(
      'Your resting heart rate went down by\n\nMy answer was cut off here: it reached the length limit for one reply. Say "keep going" and I will continue.',
    );
    gw.script({ kind: 'reply', text: 'Your sleep was', finishReason: 'length' });
    const b = await s.api('/api/chat', { json: hi });
    expect(b.status).toBe(200);
    expect(b.body.reply).toMatch(/^Your sleep was\n\nMy answer was cut off here/);
    // an answer that ended on its own gets no such note
    gw.script({ kind: 'reply', text: 'All good.' });
    expect((await s.api('/api/chat', { json: hi })).body.reply).toBe('All good.');
  });

  it('a stream of unreadable events is an unreadable reply (500), not "no answer"', async () => {
    gw.script({
      kind: 'bytes',
      headers: { 'content-type': 'text/event-stream' },
      chunks: ['data: not json\n\n', 'data: <html>502</html>\n\n', 'data: [DONE]\n\n'],
    });
    const r = await s.api('/api/chat', { json: hi });
    expect(r.status).toBe(500);
  });

  it('a Last-Event-ID beyond 2^53 is a 400', async () => {
    const conv = (await s.api('/api/conversations', { json: {} })).body.conversation;
    const r = await s.api(`/api/chat/turn/${conv.id}`, { headers: { 'last-event-id': '9007199254740993' } });
    expect(r.status).toBe(400);
  });
});
