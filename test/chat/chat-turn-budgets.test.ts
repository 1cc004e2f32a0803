// The agent loop's three budgets through POST /api/chat (docs/CHAT-AGENT.md "Turn budgets";
// docs/CHAT-AGENT.md "Transport and loop", 8, 11): many round-trips for a
// multi-card request, parallel tool calls in one round-trip, the round-trip cap, the per-step
// budget (whole-call when buffered, idle when streaming) and the whole-turn deadline. A capped or
// timed-out turn is always HTTP 200, never a 5xx.
import { afterEach, describe, expect, it } from 'vitest';
import { chatServers } from '../helpers/chat-server.js';
import type { ScriptedGateway, ScriptStep } from '../helpers/scripted-gateway.js';
import { contentText } from '../helpers/scripted-gateway.js';
import { postSse, type ReceivedEvent } from '../helpers/sse-client.js';

/** A scripted gateway and a server pointed at it; both closed after the test. */
const servers = chatServers();
const boot = servers.boot;
afterEach(() => servers.closeAll());

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function card(id: string): Record<string, unknown> {
  return {
    $schema: 'klebb.datafile.v1',
    meta: {
      id,
      label: `Card ${id}`,
      view: { enabled: true, component: 'list-card' },
      writeable: { fromWebapp: true, inputs: [{ key: 'seq', label: 'Seq', type: 'number', required: true }] },
    },
    description: `test card ${id}`,
    data: [],
  };
}

const ask = (content: string) => ({ messages: [{ role: 'user', content }] });

/** The `role:tool` messages of a recorded request body, in order. */
// biome-ignore lint/suspicious/noExplicitAny: recorded request bodies are untyped JSON
function toolMessages(body: any): Array<{ tool_call_id: string; name: string; content: string }> {
  return body.messages.filter((m: { role: string }) => m.role === 'tool');
}

/** The tool-call ids of the assistant messages of a request body, in order. */
// biome-ignore lint/suspicious/noExplicitAny: recorded request bodies are untyped JSON
function callIds(body: any): string[] {
  return body.messages.flatMap((m: { tool_calls?: Array<{ id: string }> }) =>
    (m.tool_calls ?? []).map((t) => t.id),
  );
}

/** Event names in order; `done` must be last and appear once. */
function expectEndsWithDone(events: ReceivedEvent[]): void {
  expect(events.at(-1)?.event).toBe('done');
  expect(events.filter((e) => e.event === 'done')).toHaveLength(1);
}

/** Steps for "create two cards (validating each first), append a row to both, then answer". */
function multiCardScript(a: string, b: string): ScriptStep[] {
  return [
    {
      kind: 'reply',
      text: 'Setting up both cards.',
      toolCalls: [{ id: 'v1', name: 'validate_manifest', arguments: { manifest: card(a) } }],
    },
    { kind: 'reply', toolCalls: [{ id: 'c1', name: 'create_manifest', arguments: { manifest: card(a) } }] },
    { kind: 'reply', toolCalls: [{ id: 'v2', name: 'validate_manifest', arguments: { manifest: card(b) } }] },
    { kind: 'reply', toolCalls: [{ id: 'c2', name: 'create_manifest', arguments: { manifest: card(b) } }] },
    {
      kind: 'reply',
      toolCalls: [
        { id: 'a1', name: 'append_row', arguments: { id: a, value: { date: '2026-04-20', seq: 1 } } },
      ],
    },
    {
      kind: 'reply',
      toolCalls: [
        { id: 'a2', name: 'append_row', arguments: { id: b, value: { date: '2026-04-20', seq: 2 } } },
      ],
    },
    { kind: 'reply', text: `Created **${a}** and **${b}** and logged a row on each.` },
  ];
}

describe('a multi-card request needing many round-trips', () => {
  it('buffered: 7 round-trips under the default cap end answered, with every write present', async () => {
    const { gw, s } = await boot();
    gw.script(...multiCardScript('water', 'steps'));
    const r = await s.api('/api/chat', {
      json: ask('make a water card and a steps card and log one of each'),
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ reply: 'Created **water** and **steps** and logged a row on each.' });
    // every write of the turn is one change set
    expect(r.body.changeSet.summary).toContain('created Card steps, added 1 row to Card steps');
    expect(gw.requests).toHaveLength(7);
    expect(gw.remaining).toBe(0);
    expect((await s.api('/api/manifests/water/data')).body.data).toEqual([{ date: '2026-04-20', seq: 1 }]);
    expect((await s.api('/api/manifests/steps/data')).body.data).toEqual([{ date: '2026-04-20', seq: 2 }]);
    // every tool result the model saw was a success
    const results = toolMessages(gw.requests.at(-1)?.body).map((m) => JSON.parse(contentText(m.content)));
    expect(results).toHaveLength(6);
    for (const res of results) expect(res).toMatchObject({ ok: true });
  });

  it('streamed: the same request ends with a reply event (not capped) and both cards hold their rows', async () => {
    const { gw, s } = await boot();
    gw.script(...multiCardScript('sleep', 'mood'));
    const r = await postSse(`${s.url}/api/chat`, { stream: true, ...ask('make sleep and mood cards') });
    expect(r.status).toBe(200);
    expectEndsWithDone(r.events);
    expect(r.events.at(-2)).toMatchObject({
      event: 'reply',
      data: { reply: 'Created **sleep** and **mood** and logged a row on each.' },
    });
    expect(r.events.at(-2)?.data.capped).toBeUndefined();
    expect(r.events.some((e) => e.event === 'error')).toBe(false);
    expect(r.events.filter((e) => e.event === 'status' && e.data.phase === 'thinking')).toHaveLength(7);
    expect((await s.api('/api/manifests/sleep/data')).body.data).toHaveLength(1);
    expect((await s.api('/api/manifests/mood/data')).body.data).toHaveLength(1);
  });
});

describe('parallel tool calls in one round-trip', () => {
  const three = (prefix: string) => [
    { id: `${prefix}1`, name: 'append_row', arguments: { id: 'log', value: { seq: 1 } } },
    { id: `${prefix}2`, name: 'append_row', arguments: { id: 'log', value: { seq: 2 } } },
    { id: `${prefix}3`, name: 'append_row', arguments: { id: 'log', value: { seq: 3 } } },
  ];

  it('buffered: three append_row calls run in order, each answered by a role:tool reply with its tool_call_id', async () => {
    const { gw, s } = await boot();
    expect((await s.api('/api/manifests', { json: card('log') })).status).toBe(201);
    gw.script({ kind: 'reply', toolCalls: three('p') }, { kind: 'reply', text: 'Logged three rows.' });
    const r = await s.api('/api/chat', { json: ask('log 1, 2 and 3') });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      reply: 'Logged three rows.',
      changeSet: { id: expect.any(Number), summary: 'Added 3 rows to Card log' },
    });
    expect(gw.requests).toHaveLength(2);
    expect((await s.api('/api/manifests/log/data')).body.data).toEqual([{ seq: 1 }, { seq: 2 }, { seq: 3 }]);

    const msgs = gw.requests[1].body.messages;
    const asst = msgs.findIndex(
      (m: { role: string; tool_calls?: unknown }) => m.role === 'assistant' && m.tool_calls,
    );
    // the ids are Klebb's own (never the provider's), one per call
    const ids = msgs[asst].tool_calls.map((t: { id: string }) => t.id);
    expect(new Set(ids).size).toBe(3);
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9]{9}$/);
    // the three tool replies follow the assistant message directly, in call order
    const replies = msgs.slice(asst + 1);
    expect(replies.map((m: { role: string }) => m.role)).toEqual(['tool', 'tool', 'tool']);
    expect(replies.map((m: { tool_call_id: string }) => m.tool_call_id)).toEqual(ids);
    expect(replies.map((m: { name: string }) => m.name)).toEqual(['append_row', 'append_row', 'append_row']);
    // totalAfter proves they ran one after another in that order
    expect(replies.map((m: { content: string }) => JSON.parse(contentText(m.content)).totalAfter)).toEqual([
      1, 2, 3,
    ]);
  });

  it('a failing call in the middle of the batch does not stop the others: three replies, the middle one {error}', async () => {
    const { gw, s } = await boot();
    expect((await s.api('/api/manifests', { json: card('log') })).status).toBe(201);
    gw.script(
      {
        kind: 'reply',
        toolCalls: [
          { id: 'm1', name: 'append_row', arguments: { id: 'log', value: { seq: 1 } } },
          { id: 'm2', name: 'append_row', arguments: { id: 'no-such-card', value: { seq: 2 } } },
          { id: 'm3', name: 'append_row', arguments: '{"id":"log","value":{"seq":3}' },
          { id: 'm4', name: 'append_row', arguments: { id: 'log', value: { seq: 4 } } },
        ],
      },
      { kind: 'reply', text: 'Logged two of them.' },
    );
    const r = await s.api('/api/chat', { json: ask('log four') });
    expect(r.status).toBe(200);
    expect(r.body.reply).toBe('Logged two of them.');
    const replies = toolMessages(gw.requests[1].body);
    expect(replies.map((m) => m.tool_call_id)).toEqual(callIds(gw.requests[1].body));
    expect(replies).toHaveLength(4);
    const contents = replies.map((m) => JSON.parse(contentText(m.content)));
    expect(contents[0]).toMatchObject({ ok: true, totalAfter: 1 });
    expect(contents[1]).toHaveProperty('error');
    // broken JSON arguments are never run half-parsed
    expect(contents[2]).toHaveProperty('error');
    expect(contents[3]).toMatchObject({ ok: true, totalAfter: 2 });
    expect((await s.api('/api/manifests/log/data')).body.data).toEqual([{ seq: 1 }, { seq: 4 }]);
  });

  it('streamed: one tool status per call, in order, with the card id', async () => {
    const { gw, s } = await boot();
    expect((await s.api('/api/manifests', { json: card('log') })).status).toBe(201);
    gw.script({ kind: 'reply', toolCalls: three('q') }, { kind: 'reply', text: 'Done.' });
    const r = await postSse(`${s.url}/api/chat`, { stream: true, ...ask('log 1, 2 and 3') });
    const tools = r.events.filter((e) => e.event === 'status' && e.data.phase === 'tool').map((e) => e.data);
    expect(tools).toEqual([
      { phase: 'tool', tool: 'append_row', id: 'log' },
      { phase: 'tool', tool: 'append_row', id: 'log' },
      { phase: 'tool', tool: 'append_row', id: 'log' },
    ]);
    expect(r.events.at(-2)?.data).toEqual({
      reply: 'Done.',
      changeSet: { id: expect.any(Number), summary: 'Added 3 rows to Card log' },
    });
    expect(toolMessages(gw.requests[1].body).map((m) => m.tool_call_id)).toEqual(
      callIds(gw.requests[1].body),
    );
    expect(callIds(gw.requests[1].body)).toHaveLength(3);
    expect((await s.api('/api/manifests/log/data')).body.data).toEqual([{ seq: 1 }, { seq: 2 }, { seq: 3 }]);
  });
});

describe('the round-trip cap (CHAT_MAX_TURNS)', () => {
  const endless = (): ScriptStep[] => [
    {
      kind: 'reply',
      text: 'Looking at your cards.',
      toolCalls: [{ id: 'k1', name: 'list_manifests', arguments: {} }],
    },
    {
      kind: 'reply',
      text: 'Reading the weight card.',
      toolCalls: [{ id: 'k2', name: 'list_manifests', arguments: {} }],
    },
    {
      kind: 'reply',
      text: 'Created the weight card; the rows come next.',
      toolCalls: [{ id: 'k3', name: 'list_manifests', arguments: {} }],
    },
  ];

  it('buffered: 200 {reply, capped:true}; the reply keeps the last progress text and says how to resume', async () => {
    const { gw, s } = await boot({ CHAT_MAX_TURNS: '3' });
    gw.script(...endless());
    const r = await s.api('/api/chat', { json: ask('set up everything') });
    expect(r.status).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual(['capped', 'reply']);
    expect(r.body.capped).toBe(true);
    expect(r.body.reply).toContain('Created the weight card; the rows come next.');
    expect(r.body.reply).toMatch(/keep going/i);
    // exactly the cap: no fourth round-trip was started
    expect(gw.requests).toHaveLength(3);
    expect(gw.remaining).toBe(0);
  });

  it('streamed: the capped reply arrives as a reply event, then done; no error event', async () => {
    const { gw, s } = await boot({ CHAT_MAX_TURNS: '3' });
    gw.script(...endless());
    const r = await postSse(`${s.url}/api/chat`, { stream: true, ...ask('set up everything') });
    expect(r.status).toBe(200);
    expectEndsWithDone(r.events);
    const reply = r.events.at(-2);
    expect(reply?.event).toBe('reply');
    expect(reply?.data.capped).toBe(true);
    expect(reply?.data.reply).toContain('Created the weight card; the rows come next.');
    expect(reply?.data.reply).toMatch(/keep going/i);
    expect(r.events.some((e) => e.event === 'error')).toBe(false);
    expect(gw.requests).toHaveLength(3);
  });

  it('with no progress text at all the capped reply still says how to resume', async () => {
    const { gw, s } = await boot({ CHAT_MAX_TURNS: '2' });
    gw.script(
      { kind: 'reply', toolCalls: [{ id: 'n1', name: 'list_manifests', arguments: {} }] },
      { kind: 'reply', toolCalls: [{ id: 'n2', name: 'list_manifests', arguments: {} }] },
    );
    const r = await s.api('/api/chat', { json: ask('go') });
    expect(r.status).toBe(200);
    expect(r.body.capped).toBe(true);
    expect(r.body.reply).toMatch(/keep going/i);
  });
});

describe('the per-step budget (CHAT_ITER_TIMEOUT_MS)', () => {
  const budgetEnv = { CHAT_ITER_TIMEOUT_MS: '300', CHAT_TURN_DEADLINE_MS: '1500', CHAT_MAX_TURNS: '3' };
  const notFitCopy = /fit any tool|doesn.t fit|does not fit|can.t do that in one step/i;

  it('buffered: a reply held past the budget gives 200 timedOut with copy that does not blame the request', async () => {
    const { gw, s } = await boot(budgetEnv);
    gw.script({ kind: 'reply', text: 'far too late', headersDelayMs: 900 });
    const r = await s.api('/api/chat', { json: ask('how is my weight?') });
    expect(r.status).toBe(200);
    expect(r.body.timedOut).toBe(true);
    expect(typeof r.body.reply).toBe('string');
    expect(r.body.reply).not.toMatch(notFitCopy);
    expect(r.body.reply).not.toContain('far too late');
  });

  it('buffered: a step that times out after earlier tool calls still answers 200, and the earlier writes stay', async () => {
    const { gw, s } = await boot(budgetEnv);
    expect((await s.api('/api/manifests', { json: card('log') })).status).toBe(201);
    gw.script(
      {
        kind: 'reply',
        toolCalls: [{ id: 'w1', name: 'append_row', arguments: { id: 'log', value: { seq: 7 } } }],
      },
      { kind: 'reply', text: 'late', headersDelayMs: 900 },
    );
    const r = await s.api('/api/chat', { json: ask('log 7') });
    expect(r.status).toBe(200);
    expect(r.body.timedOut).toBe(true);
    expect((await s.api('/api/manifests/log/data')).body.data).toEqual([{ seq: 7 }]);
  });

  it('streamed: a stalled stream trips the idle timeout: reply event with timedOut, then done', async () => {
    const { gw, s } = await boot(budgetEnv);
    gw.script({ kind: 'stall' });
    const r = await postSse(`${s.url}/api/chat`, { stream: true, ...ask('how is my weight?') });
    expect(r.status).toBe(200);
    expectEndsWithDone(r.events);
    const reply = r.events.at(-2);
    expect(reply?.event).toBe('reply');
    expect(reply?.data.timedOut).toBe(true);
    expect(reply?.data.reply).not.toMatch(notFitCopy);
    expect(r.events.some((e) => e.event === 'error')).toBe(false);
  });

  it('streamed: a stream that stalls after some text also ends in the timeout reply, not an error', async () => {
    const { gw, s } = await boot(budgetEnv);
    gw.script({ kind: 'stall', afterText: 'Let me check your' });
    const r = await postSse(`${s.url}/api/chat`, { stream: true, ...ask('how is my weight?') });
    expectEndsWithDone(r.events);
    expect(r.events.at(-2)?.event).toBe('reply');
    expect(r.events.at(-2)?.data.timedOut).toBe(true);
    expect(r.events.some((e) => e.event === 'error')).toBe(false);
  });

  it('streamed: a slow but steady stream (each chunk inside the budget, the total well past it) completes normally', async () => {
    const { gw, s } = await boot({ CHAT_ITER_TIMEOUT_MS: '300', CHAT_TURN_DEADLINE_MS: '20000' });
    const chunks = ['Your ', 'weight ', 'went ', 'down ', 'by ', 'half ', 'a ', 'kilo ', 'this ', 'week.'];
    // 10 text chunks plus role/finish/[DONE] events, 120 ms apart: ~1.5 s in all, 5x the budget
    gw.script({ kind: 'reply', chunks, chunkDelayMs: 120 });
    const r = await postSse(`${s.url}/api/chat`, { stream: true, ...ask('weight trend?') });
    expectEndsWithDone(r.events);
    expect(r.events.at(-2)).toEqual(
      expect.objectContaining({ event: 'reply', data: { reply: chunks.join('') } }),
    );
    expect(
      r.events
        .filter((e) => e.event === 'token')
        .map((e) => e.data.text)
        .join(''),
    ).toBe(chunks.join(''));
  });
});

describe('the whole-turn deadline (CHAT_TURN_DEADLINE_MS)', () => {
  const DEADLINE = 1500;
  const STEP_DELAY = 250;
  const stepsPastDeadline = (): ScriptStep[] =>
    Array.from({ length: 14 }, (_, i) => ({
      kind: 'reply' as const,
      headersDelayMs: STEP_DELAY,
      text: `Progress note ${i + 1}.`,
      toolCalls: [{ id: `d${i + 1}`, name: 'list_manifests', arguments: {} }],
    }));

  /** Records when each gateway request arrived (the recorder pushes into gw.requests). */
  function stampArrivals(gw: ScriptedGateway): number[] {
    const at: number[] = [];
    const push = gw.requests.push.bind(gw.requests);
    gw.requests.push = (...items) => {
      for (const _ of items) at.push(Date.now());
      return push(...items);
    };
    return at;
  }

  for (const mode of ['buffered', 'streamed'] as const) {
    it(`${mode}: steps each inside the step budget but together past the deadline give 200 capped; no request starts after the deadline`, async () => {
      const { gw, s } = await boot({
        CHAT_ITER_TIMEOUT_MS: '1000',
        CHAT_TURN_DEADLINE_MS: String(DEADLINE),
        CHAT_MAX_TURNS: '36',
      });
      gw.script(...stepsPastDeadline());
      const arrivals = stampArrivals(gw);
      const t0 = Date.now();
      let payload: { reply?: string; capped?: boolean; timedOut?: boolean };
      if (mode === 'buffered') {
        const r = await s.api('/api/chat', { json: ask('do a lot') });
        expect(r.status).toBe(200);
        payload = r.body;
      } else {
        const r = await postSse(`${s.url}/api/chat`, { stream: true, ...ask('do a lot') });
        expect(r.status).toBe(200);
        expectEndsWithDone(r.events);
        expect(r.events.some((e) => e.event === 'error')).toBe(false);
        expect(r.events.at(-2)?.event).toBe('reply');
        payload = r.events.at(-2)?.data;
      }
      expect(payload.capped).toBe(true);
      expect(payload.reply).toMatch(/keep going/i);
      expect(payload.reply).toMatch(/Progress note \d+\./);
      // the loop stopped early: steps were left over, and nothing arrived after the deadline
      expect(gw.remaining).toBeGreaterThan(0);
      expect(arrivals.length).toBeLessThan(14);
      // the server's clock starts after t0, so its deadline is no earlier than t0 + DEADLINE;
      // 300 ms of slack covers the hop from the server to the gateway
      for (const t of arrivals) expect(t - t0).toBeLessThanOrEqual(DEADLINE + 300);
      // and the turn does not carry on in the background once it has answered
      const count = gw.requests.length;
      await sleep(STEP_DELAY * 3);
      expect(gw.requests.length).toBe(count);
    });
  }
});
