// A crash mid-turn ("After a crash or restart, a conversation whose
// turn was running shows the user's message and no half reply, and accepts a new turn"). The built
// server runs as a child process (`node dist/src/main.js`; build first) and is SIGKILLed while the
// scripted gateway stalls mid-answer, then restarted on the same HEALTH_HOME.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChildServer, killAllChildren, spawnServer } from '../helpers/child-server.js';
import { sandboxHome } from '../helpers/sandbox-home.js';
import { contentText, type ScriptedGateway, startScriptedGateway } from '../helpers/scripted-gateway.js';
import { chatEnv, eventually, readSse } from './conv-helpers.js';

let gw: ScriptedGateway;
const box = sandboxHome('klebb-crash-');
beforeAll(async () => {
  gw = await startScriptedGateway();
});
afterAll(async () => {
  await killAllChildren();
  await gw.close();
  box.remove();
});

const contents = (msgs: { role: string; content: unknown }[]) =>
  msgs.map((m) => `${m.role}:${contentText(m.content)}`);

describe('SIGKILL mid-turn, then restart on the same home', () => {
  it('shows the user’s message and no half reply, has no turn to attach to, and accepts a new turn', async () => {
    const first: ChildServer = await spawnServer({ home: box.home, env: chatEnv(gw) });
    const auth = { authorization: `Bearer ${first.token}` };
    const created = await first.api('/api/conversations', { json: { title: 'crash' } });
    expect(created.status).toBe(201);
    const id = created.body.conversation.id as string;

    // a completed exchange first: it must survive the crash
    gw.script({ kind: 'reply', text: 'Logged it.' });
    const done = await first.api('/api/chat', {
      json: { conversationId: id, messages: [{ role: 'user', content: 'log 80 kg' }] },
    });
    expect(done.status).toBe(200);

    // the next turn: the model starts answering, then stalls; the client watches the first token
    gw.script({ kind: 'stall', afterText: 'Half of an answer that ' });
    const seen = await readSse(
      `${first.url}/api/chat`,
      {
        body: { stream: true, conversationId: id, messages: [{ role: 'user', content: 'and my trend?' }] },
        headers: auth,
      },
      { stopWhen: (e) => e.event === 'token' },
    );
    expect(seen.status).toBe(200);
    expect(seen.events.some((e) => e.event === 'token')).toBe(true);
    // the turn is still running on the server (stalled at the gateway) when the process dies
    await eventually(() => gw.remaining === 0, 'the stalled step to be taken');
    const live = await readSse(
      `${first.url}/api/chat/turn/${id}`,
      { headers: auth },
      { stopWhen: () => true },
    );
    expect(live.status).toBe(200); // running, so attachable (not 204)
    expect(live.aborted).toBe(true);

    const exit = await first.kill();
    expect(exit.signal).toBe('SIGKILL');

    const second = await spawnServer({ home: box.home, env: chatEnv(gw) });
    const conv = (await second.api(`/api/conversations/${id}`)).body.conversation;
    expect(contents(conv.messages)).toEqual(['user:log 80 kg', 'assistant:Logged it.', 'user:and my trend?']);
    expect(JSON.stringify(conv.messages)).not.toContain('Half of an answer');

    const attach = await second.api(`/api/chat/turn/${id}`);
    expect(attach.status).toBe(204);
    expect((await second.api(`/api/chat/turn/${id}`, { method: 'DELETE' })).status).toBe(404);

    gw.script({ kind: 'reply', text: 'Your trend is flat.' });
    const next = await second.api('/api/chat', {
      json: { conversationId: id, messages: [{ role: 'user', content: 'my trend, again?' }] },
    });
    expect(next.status).toBe(200);
    expect(next.body).toEqual({ reply: 'Your trend is flat.' });
    const after = (await second.api(`/api/conversations/${id}`)).body.conversation;
    expect(contents(after.messages)).toEqual([
      'user:log 80 kg',
      'assistant:Logged it.',
      'user:and my trend?',
      'user:my trend, again?',
      'assistant:Your trend is flat.',
    ]);
    // the new server fed the loop the stored transcript, the orphaned question included
    const lastCall = gw.requests.at(-1)?.body;
    const sent = (lastCall.messages as { role: string; content: string }[]).filter(
      (m) => m.role !== 'system',
    );
    expect(contents(sent)).toEqual([
      'user:log 80 kg',
      'assistant:Logged it.',
      'user:and my trend?',
      'user:my trend, again?',
    ]);
    await eventually(() => gw.remaining === 0, 'the script to be used up');
    await second.stop();
  });

  it('SIGTERM mid-turn (a restart) with a client still attached: the server exits promptly and the turn ends as stopped', async () => {
    const home = sandboxHome('klebb-restart-');
    try {
      const first = await spawnServer({
        home: home.home,
        env: chatEnv(gw, { CHAT_ITER_TIMEOUT_MS: '60000' }),
      });
      const id = (await first.api('/api/conversations', { json: { title: 'restart' } })).body.conversation
        .id as string;
      gw.script({ kind: 'stall', afterText: 'Partial ' });
      // this client stays connected until the server goes away
      const watching = readSse(`${first.url}/api/chat`, {
        body: { stream: true, conversationId: id, messages: [{ role: 'user', content: 'long question' }] },
        headers: { authorization: `Bearer ${first.token}` },
      }).catch((err: unknown) => ({ failed: String(err) }));
      await eventually(() => gw.remaining === 0, 'the stalled step to be taken');
      await new Promise((r) => setTimeout(r, 200));
      const ended = await first.stop(10_000);
      // a graceful stop must not sit behind a turn that is waiting on the model (it would wait
      // for CHAT_ITER_TIMEOUT_MS and then store the step-timeout reply)
      expect.soft(ended.forced, 'SIGTERM did not end the server within 10 s').toBe(false);
      const seen = await watching;
      if ('events' in seen) {
        expect(seen.events.map((e) => e.event)).not.toContain('reply');
        expect(seen.events.map((e) => e.event).slice(-2)).toEqual(['stopped', 'done']);
      }

      const second = await spawnServer({ home: home.home, env: chatEnv(gw) });
      const conv = (await second.api(`/api/conversations/${id}`)).body.conversation;
      expect(contents(conv.messages)).toEqual(['user:long question']);
      expect((await second.api(`/api/chat/turn/${id}`)).status).toBe(204);
      gw.script({ kind: 'reply', text: 'Answer after restart.' });
      const next = await second.api('/api/chat', {
        json: { conversationId: id, messages: [{ role: 'user', content: 'again' }] },
      });
      expect(next.status).toBe(200);
      await second.stop();
    } finally {
      await killAllChildren();
      home.remove();
    }
  });
});
