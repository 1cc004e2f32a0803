// A client that goes away mid-turn only mutes the events: the loop runs to completion
// (docs/CHAT-AGENT.md "How a turn works"): iOS aborts fetches of backgrounded tabs, and a
// client disconnect must not abort the upstream LLM call.
import { afterEach, expect, it } from 'vitest';
import { chatServers } from '../helpers/chat-server.js';
import type { ScriptStep } from '../helpers/scripted-gateway.js';
import { contentText } from '../helpers/scripted-gateway.js';
import { postSse } from '../helpers/sse-client.js';

const servers = chatServers({ CHAT_ITER_TIMEOUT_MS: '5000', CHAT_TURN_DEADLINE_MS: '15000' });
const boot = servers.boot;
afterEach(() => servers.closeAll());

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `check` until it returns true (a hang guard, not a speed assertion). */
async function eventually(
  check: () => boolean | Promise<boolean>,
  what: string,
  limitMs = 10_000,
): Promise<void> {
  const until = Date.now() + limitMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`never happened: ${what}`);
    await sleep(25);
  }
}

const weightCard = {
  $schema: 'klebb.datafile.v1',
  meta: {
    id: 'weight',
    label: 'Weight',
    view: { enabled: true, component: 'list-card' },
    writeable: { fromWebapp: true, inputs: [{ key: 'kg', label: 'kg', type: 'number', required: true }] },
  },
  description: 'Body weight',
  data: [],
};

/** First step streams text slowly (so the client can leave mid-stream), then the tool calls run. */
function script(): ScriptStep[] {
  return [
    {
      kind: 'reply',
      chunks: ['Creating ', 'your ', 'weight ', 'card ', 'now.'],
      chunkDelayMs: 60,
      toolCalls: [{ id: 'c1', name: 'create_manifest', arguments: { manifest: weightCard } }],
    },
    {
      kind: 'reply',
      headersDelayMs: 150,
      toolCalls: [
        { id: 'a1', name: 'append_row', arguments: { id: 'weight', value: { date: '2026-04-20', kg: 85 } } },
      ],
    },
    {
      kind: 'reply',
      headersDelayMs: 150,
      toolCalls: [
        {
          id: 'a2',
          name: 'append_row',
          arguments: { id: 'weight', value: { date: '2026-04-21', kg: 84.6 } },
        },
      ],
    },
    { kind: 'reply', text: 'Created **Weight** and logged two days.' },
  ];
}

it('aborting the SSE fetch after the first token does not stop the turn: later tool calls run and every scripted request arrives', async () => {
  const { gw, s } = await boot();
  gw.script(...script());
  const controller = new AbortController();
  const seen: string[] = [];
  const outcome = await postSse(
    `${s.url}/api/chat`,
    { stream: true, messages: [{ role: 'user', content: 'track my weight: 85 then 84.6' }] },
    {},
    {
      signal: controller.signal,
      onEvent: (e) => {
        seen.push(e.event);
        if (e.event === 'token') controller.abort();
      },
    },
  ).then(
    () => 'completed',
    (err: Error) => err.name,
  );
  expect(outcome).toBe('AbortError');
  // the client left during the first round-trip, before any tool ran
  expect(seen).not.toContain('reply');
  expect(seen.filter((e) => e === 'status')).toEqual(['status']);

  await eventually(() => gw.requests.length === 4, 'all four gateway requests');
  await eventually(
    async () => (await s.api('/api/manifests/weight/data')).body?.data?.length === 2,
    'two rows on the weight card',
  );
  expect(gw.remaining).toBe(0);
  expect((await s.api('/api/manifests/weight/data')).body.data).toEqual([
    { date: '2026-04-20', kg: 85 },
    { date: '2026-04-21', kg: 84.6 },
  ]);
  // the requests after the disconnect carried the tool results of the calls before them
  const last = gw.requests[3].body.messages;
  const results = last
    .filter((m: { role: string }) => m.role === 'tool')
    .map((m: { content: string }) => JSON.parse(contentText(m.content)));
  expect(results).toEqual([
    expect.objectContaining({ ok: true, id: 'weight' }),
    expect.objectContaining({ ok: true, added: 1, totalAfter: 1 }),
    expect.objectContaining({ ok: true, added: 1, totalAfter: 2 }),
  ]);
});

it('aborting a buffered request mid-turn does not stop the turn either', async () => {
  const { gw, s } = await boot();
  gw.script(...script());
  const controller = new AbortController();
  const pending = fetch(`${s.url}/api/chat`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ messages: [{ role: 'user', content: 'track my weight: 85 then 84.6' }] }),
    signal: controller.signal,
  }).then(
    () => 'completed',
    (err: Error) => err.name,
  );
  await eventually(() => gw.requests.length >= 1, 'the first gateway request');
  controller.abort();
  expect(await pending).toBe('AbortError');
  await eventually(() => gw.requests.length === 4, 'all four gateway requests');
  await eventually(
    async () => (await s.api('/api/manifests/weight/data')).body?.data?.length === 2,
    'two rows on the weight card',
  );
  expect(gw.remaining).toBe(0);
});
