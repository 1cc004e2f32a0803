// The legacy single transcript (docs/API.md `GET/PUT/DELETE /api/chat/history`; seed
// "Detached turns": the legacy chat/history.json is folded into a conversation the first time the
// new client loads): PUT keeps user/assistant string messages only, the newest 200, the known
// extras, and refuses more than 512 KB; `POST /api/chat/history/fold` folds the file once.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';

const servers: TestServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});
async function boot(before?: (home: string) => void): Promise<TestServer> {
  const s = await startServer({ watch: false, before: (home) => before?.(home) });
  servers.push(s);
  return s;
}
const historyFile = (home: string) => path.join(home, 'chat', 'history.json');

describe('GET/PUT/DELETE /api/chat/history', () => {
  it('GET is empty without a file; PUT keeps user/assistant string messages with their extras; GET returns them', async () => {
    const s = await boot();
    expect((await s.api('/api/chat/history')).body).toEqual({ messages: [] });
    const put = await s.api('/api/chat/history', {
      method: 'PUT',
      json: {
        messages: [
          { role: 'system', content: 'never kept' },
          { role: 'user', content: 'log my weight' },
          { role: 'tool', content: '{}', tool_call_id: 'x' },
          { role: 'assistant', content: null, tool_calls: [] },
          { role: 'assistant', content: ['not', 'a', 'string'] },
          {
            role: 'assistant',
            content: 'Logged 80 kg.',
            followupText: 'Chart it?',
            embellishments: [{ label: 'Chart', prompt: 'chart my weight' }],
            hasVoice: true,
            secret: 'not kept',
          },
          null,
          'garbage',
        ],
      },
    });
    expect(put.status).toBe(200);
    const expected = [
      { role: 'user', content: 'log my weight' },
      {
        role: 'assistant',
        content: 'Logged 80 kg.',
        followupText: 'Chart it?',
        embellishments: [{ label: 'Chart', prompt: 'chart my weight' }],
        hasVoice: true,
      },
    ];
    expect(put.body.messages).toEqual(expected);
    expect((await s.api('/api/chat/history')).body).toEqual({ messages: expected });
    expect(fs.existsSync(historyFile(s.home))).toBe(true);
  });

  it('PUT keeps the newest 200 messages', async () => {
    const s = await boot();
    const messages = Array.from({ length: 230 }, (_, i) => ({
      role: i % 2 ? 'assistant' : 'user',
      content: `m${i}`,
    }));
    const put = await s.api('/api/chat/history', { method: 'PUT', json: { messages } });
    expect(put.body.messages).toHaveLength(200);
    const got = (await s.api('/api/chat/history')).body.messages;
    expect(got).toHaveLength(200);
    expect(got[0].content).toBe('m30');
    expect(got.at(-1).content).toBe('m229');
  });

  it('PUT over 512 KB is 413 and keeps the old transcript; PUT without an array is 400', async () => {
    const s = await boot();
    await s.api('/api/chat/history', {
      method: 'PUT',
      json: { messages: [{ role: 'user', content: 'keep' }] },
    });
    const big = await s.api('/api/chat/history', {
      method: 'PUT',
      json: { messages: [{ role: 'user', content: 'x'.repeat(530 * 1024) }] },
    });
    expect(big.status).toBe(413);
    expect((await s.api('/api/chat/history')).body.messages).toEqual([{ role: 'user', content: 'keep' }]);
    expect((await s.api('/api/chat/history', { method: 'PUT', json: { messages: 'x' } })).status).toBe(400);
  });

  it('DELETE clears the transcript', async () => {
    const s = await boot();
    await s.api('/api/chat/history', {
      method: 'PUT',
      json: { messages: [{ role: 'user', content: 'bye' }] },
    });
    const del = await s.api('/api/chat/history', { method: 'DELETE' });
    expect(del.status).toBe(200);
    expect((await s.api('/api/chat/history')).body).toEqual({ messages: [] });
    expect(fs.existsSync(historyFile(s.home))).toBe(false);
  });

  it('GET reads a pre-existing file (bare array or {messages})', async () => {
    const s = await boot((home) => {
      fs.mkdirSync(path.join(home, 'chat'), { recursive: true });
      fs.writeFileSync(historyFile(home), JSON.stringify([{ role: 'user', content: 'from an old install' }]));
    });
    expect((await s.api('/api/chat/history')).body.messages).toEqual([
      { role: 'user', content: 'from an old install' },
    ]);
  });
});

describe('POST /api/chat/history/fold', () => {
  const legacy = [
    { role: 'user', content: 'how much did I sleep?' },
    { role: 'assistant', content: '7 hours.', hasVoice: true, followupText: 'Track it?' },
    { role: 'system', content: 'dropped' },
    { role: 'user', content: 'thanks' },
    {
      role: 'assistant',
      content: 'Any time.',
      embellishments: [{ label: 'Sleep card', prompt: 'make a sleep card' }],
    },
  ];

  it('folds a pre-existing history.json into one conversation, once', async () => {
    const s = await boot((home) => {
      fs.mkdirSync(path.join(home, 'chat'), { recursive: true });
      fs.writeFileSync(historyFile(home), JSON.stringify({ messages: legacy }));
    });
    const fold = await s.api('/api/chat/history/fold', { method: 'POST' });
    expect(fold.status).toBe(200);
    const id = fold.body.conversationId as string;
    expect(typeof id).toBe('string');
    const conv = (await s.api(`/api/conversations/${id}`)).body.conversation;
    expect(conv.messages.map((m: { role: string; content: string }) => `${m.role}:${m.content}`)).toEqual([
      'user:how much did I sleep?',
      'assistant:7 hours.',
      'user:thanks',
      'assistant:Any time.',
    ]);
    expect(conv.messages[1]).toMatchObject({ hasVoice: true, followupText: 'Track it?' });
    expect(conv.messages[3]).toMatchObject({
      embellishments: [{ label: 'Sleep card', prompt: 'make a sleep card' }],
    });
    expect((await s.api('/api/conversations')).body.conversations).toHaveLength(1);

    const again = await s.api('/api/chat/history/fold', { method: 'POST' });
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ conversationId: null });
    expect((await s.api('/api/conversations')).body.conversations).toHaveLength(1);
    expect((await s.api('/api/chat/history')).body.messages).toEqual([]);
  });

  it('the fold survives a restart: after it, a new server on the same home folds nothing', async () => {
    const first = await boot((home) => {
      fs.mkdirSync(path.join(home, 'chat'), { recursive: true });
      fs.writeFileSync(historyFile(home), JSON.stringify(legacy));
    });
    expect((await first.api('/api/chat/history/fold', { method: 'POST' })).body.conversationId).toEqual(
      expect.any(String),
    );
    const home = first.home;
    servers.splice(servers.indexOf(first), 1);
    await first.close({ keepHome: true });
    const second = await startServer({ home, watch: false });
    try {
      expect((await second.api('/api/chat/history/fold', { method: 'POST' })).body).toEqual({
        conversationId: null,
      });
      expect((await second.api('/api/conversations')).body.conversations).toHaveLength(1);
    } finally {
      await second.close();
      fs.rmSync(home, { recursive: true, force: true });
    }
  });

  it('nothing to fold: {conversationId: null} and no conversation is created', async () => {
    const s = await boot();
    expect((await s.api('/api/chat/history/fold', { method: 'POST' })).body).toEqual({
      conversationId: null,
    });
    expect((await s.api('/api/conversations')).body.conversations).toEqual([]);
  });
});
