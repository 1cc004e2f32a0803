/**
 * A chat message that says nothing (empty, spaces and line breaks, or only invisible characters
 * such as a zero-width space) is 400 BAD_REQUEST naming it: no request reaches the model (a call
 * paid for nothing) and nothing is stored in the conversation it names.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ScriptedGateway, startScriptedGateway } from '../helpers/scripted-gateway.js';
import { startServer, type TestServer } from '../helpers/server.js';

let gw: ScriptedGateway;
let s: TestServer;
beforeAll(async () => {
  gw = await startScriptedGateway();
  s = await startServer({ env: { CHAT_ENDPOINT_URL: gw.url, CHAT_MODEL: 'test-model' } });
});
afterAll(async () => {
  await s.close();
  await gw.close();
});

describe('a chat message with nothing in it', () => {
  it('is refused naming the message, before the model or the conversation sees it', async () => {
    const conv = await s.api('/api/conversations', { method: 'POST', json: {} });
    const id = conv.body.conversation.id as string;
    for (const content of ['', '   ', '\n\t \n', '\u200b', '\u00a0\u2060']) {
      for (const extra of [{}, { conversationId: id }, { stream: true }]) {
        const messages = [
          { role: 'user', content: 'earlier' },
          { role: 'assistant', content: 'an answer' },
          { role: 'user', content },
        ];
        const r = await s.api('/api/chat', { json: { messages, ...extra } });
        const label = `${JSON.stringify(content)} ${JSON.stringify(extra)}`;
        expect(r.status, label).toBe(400);
        expect(r.body, label).toEqual({
          error: 'messages[2].content is empty: write what to ask or tell',
          code: 'BAD_REQUEST',
          details: [{ path: 'body.messages[2].content', message: 'must not be empty' }],
        });
      }
    }
    expect(gw.requests).toEqual([]);
    const after = await s.api(`/api/conversations/${id}`);
    expect(after.body.conversation.messages).toEqual([]);
  });

  it('an assistant message earlier in the transcript may be empty, as a model can answer so', async () => {
    gw.script({ kind: 'reply', text: 'Here.' });
    const r = await s.api('/api/chat', {
      json: {
        messages: [
          { role: 'user', content: 'hi' },
          { role: 'assistant', content: '' },
          { role: 'user', content: 'again' },
        ],
      },
    });
    expect(r.status).toBe(200);
    expect(r.body.reply).toBe('Here.');
  });
});
