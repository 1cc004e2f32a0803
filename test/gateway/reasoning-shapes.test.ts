// Reasoning in the shapes gateways send it besides the plain string fields: thinking parts inside
// `content` (Mistral's reasoning models) and structured `reasoning_details` items (OpenRouter),
// streamed and not. Whatever the shape, reasoning goes to its own channel and never into the
// answer, an encrypted item is never shown, and the structured items go back unchanged on the
// next request of a tool loop (the real agent loop, runTurn).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runTurn } from '../../src/chat/agent/run-turn.js';
import { callGateway } from '../../src/chat/gateway/client.js';
import { assistantMessageFor, toolResultMessage } from '../../src/chat/gateway/history.js';
import { ProviderMemory } from '../../src/chat/gateway/provider-memory.js';
import type { ChatMessage } from '../../src/chat/gateway/types.js';
import {
  type RecordedRequest,
  type ScriptedGateway,
  type ScriptStep,
  startScriptedGateway,
} from '../helpers/scripted-gateway.js';
import { configFor, recordHooks, userSays } from './support.js';

let gw: ScriptedGateway;
beforeEach(async () => {
  gw = await startScriptedGateway();
});
afterEach(() => gw.close());

const BLOB = 'ZW5jcnlwdGVkLWJsb2ItbmV2ZXItc2hvd24=';

/** One buffered chat.completion body holding `message`. */
const completion = (message: Record<string, unknown>, finish = 'stop') =>
  JSON.stringify({
    object: 'chat.completion',
    model: 'm',
    choices: [{ index: 0, finish_reason: finish, message: { role: 'assistant', ...message } }],
  });

/** One SSE event holding `delta`. */
const event = (delta: Record<string, unknown>, finish: string | null = null) =>
  `data: ${JSON.stringify({ object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;

const json = (body: string) => ({
  kind: 'bytes' as const,
  headers: { 'Content-Type': 'application/json' },
  chunks: [body],
});

describe('thinking content parts', () => {
  it('a buffered reply: thinking parts (a list of text parts or a string) are reasoning, text parts the answer', async () => {
    gw.script(
      json(
        completion({
          content: [
            { type: 'thinking', thinking: [{ type: 'text', text: 'Steps are in the activity card.' }] },
            { type: 'text', text: 'You walked 8,200 steps.' },
          ],
        }),
      ),
      json(
        completion({
          content: [
            { type: 'thinking', thinking: 'Check the weight card.' },
            { type: 'text', text: 'Down 0.4 kg.' },
          ],
        }),
      ),
    );
    const cfg = configFor(gw.url);
    const listed = await callGateway(cfg, { messages: userSays('steps?') });
    expect(listed).toMatchObject({
      text: 'You walked 8,200 steps.',
      reasoning: 'Steps are in the activity card.',
    });
    const rec = recordHooks();
    // a streamed request answered with one JSON body: its reasoning still goes out on its channel
    const plain = await callGateway(cfg, { messages: userSays('weight?'), stream: true }, rec.hooks);
    expect(plain).toMatchObject({ text: 'Down 0.4 kg.', reasoning: 'Check the weight card.' });
    expect(rec.reasoning).toEqual(['Check the weight card.']);
    expect(rec.tokens).toEqual(['Down 0.4 kg.']);
  });

  it('a stream mixing thinking parts and text parts in one delta splits them', async () => {
    gw.script({
      kind: 'bytes',
      chunks: [
        event({
          content: [
            { type: 'thinking', thinking: [{ type: 'text', text: 'Short answer.' }] },
            { type: 'text', text: 'Yes.' },
          ],
        }),
        event({}, 'stop'),
        'data: [DONE]\n\n',
      ],
    });
    const rec = recordHooks();
    const result = await callGateway(
      configFor(gw.url),
      { messages: userSays('ok?'), stream: true },
      rec.hooks,
    );
    expect(result).toMatchObject({ text: 'Yes.', reasoning: 'Short answer.' });
    expect(rec.reasoning).toEqual(['Short answer.']);
    expect(rec.tokens).toEqual(['Yes.']);
  });
});

describe('reasoning_details', () => {
  it('a buffered reply: summaries and text items are the reasoning, the encrypted item is kept but never shown', async () => {
    const details = [
      {
        type: 'reasoning.summary',
        summary: 'Looked at the sleep card.',
        format: 'openai-responses-v1',
        index: 0,
      },
      { type: 'reasoning.encrypted', data: BLOB, id: 'rs_1', format: 'openai-responses-v1', index: 1 },
    ];
    gw.script(json(completion({ content: 'You slept 7 h.', reasoning: null, reasoning_details: details })));
    const rec = recordHooks();
    const result = await callGateway(
      configFor(gw.url),
      { messages: userSays('sleep?'), stream: true },
      rec.hooks,
    );
    expect(result).toMatchObject({ text: 'You slept 7 h.', reasoning: 'Looked at the sleep card.' });
    expect(result.reasoningDetails).toEqual(details);
    expect(JSON.stringify([result.text, result.reasoning, rec.reasoning, rec.tokens])).not.toContain(BLOB);
  });

  it('a plain reasoning field wins over the items it duplicates, streamed pieces are joined by index', async () => {
    gw.script({
      kind: 'bytes',
      chunks: [
        event({
          reasoning: 'Counting',
          reasoning_details: [{ type: 'reasoning.text', text: 'Counting', index: 0 }],
        }),
        event({
          reasoning: ' glasses.',
          reasoning_details: [{ type: 'reasoning.text', text: ' glasses.', index: 0 }],
        }),
        event({ reasoning_details: [{ type: 'reasoning.text', signature: 'sig-1', index: 0 }] }),
        event({ content: 'Six glasses.' }),
        event({}, 'stop'),
        'data: [DONE]\n\n',
      ],
    });
    const result = await callGateway(configFor(gw.url), { messages: userSays('water?'), stream: true });
    expect(result).toMatchObject({ text: 'Six glasses.', reasoning: 'Counting glasses.' });
    expect(result.reasoningDetails).toEqual([
      { type: 'reasoning.text', text: 'Counting glasses.', signature: 'sig-1', index: 0 },
    ]);
  });

  it('the items go back unchanged with the assistant message on the next request of a tool loop', async () => {
    const sent: unknown[] = [];
    gw.script(
      { kind: 'fixture', name: 'reasoning-details-only', split: 'lines' },
      {
        kind: 'decide',
        choose: (q) => {
          sent.push(...q.body.messages.filter((m: { role: string }) => m.role === 'assistant'));
          return { kind: 'reply', text: 'You slept well all week.' };
        },
      },
    );
    const shown: string[] = [];
    const result = await runTurn(
      {
        turnId: 't1',
        messages: [{ role: 'user', content: 'sleep this week?' }],
        stream: true,
        voiceMode: false,
      },
      {
        gateway: { url: gw.url, model: 'test-model', maxRetries: 0, memory: new ProviderMemory() },
        budgets: { maxRoundTrips: 4, iterTimeoutMs: 10_000, turnDeadlineMs: 0 },
        system: { role: 'system', content: 'You are Klebb.' },
        tools: [],
        dispatch: async () => ({ ok: true, content: '{"rows":[]}' }),
        parseVoice: (t) => ({ speak: t, display: t }),
      },
      (e) => shown.push(JSON.stringify(e)),
      new AbortController().signal,
    );
    expect(result.payload?.reply).toBe('You slept well all week.');
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({
      role: 'assistant',
      reasoning_details: [
        {
          type: 'reasoning.text',
          text: 'Sleep data lives in the sleep card.',
          signature: 'c2lnbmVkLXRoaW5raW5n',
          format: 'anthropic-claude-v1',
          index: 0,
        },
        { type: 'reasoning.encrypted', data: BLOB, id: 'rs_01', format: 'anthropic-claude-v1', index: 1 },
      ],
    });
    // nothing the person is sent carries the encrypted blob
    expect(shown.join('\n')).not.toContain(BLOB);
    expect(JSON.stringify(result.payload)).not.toContain(BLOB);
  });

  it('a gateway that refuses them back is asked again without them, and that is remembered', async () => {
    const refuse = (q: RecordedRequest): ScriptStep =>
      q.body.messages.some((m: { reasoning_details?: unknown }) => m.reasoning_details !== undefined)
        ? {
            kind: 'error',
            status: 400,
            body: {
              error: { message: 'Unrecognized request argument supplied: messages[1].reasoning_details' },
            },
          }
        : { kind: 'reply', text: 'Seven nights read.' };
    gw.script(
      { kind: 'fixture', name: 'reasoning-details-only' },
      { kind: 'decide', choose: refuse },
      { kind: 'decide', choose: refuse },
      { kind: 'decide', choose: refuse },
    );
    const cfg = configFor(gw.url);
    const first = await callGateway(cfg, { messages: userSays('sleep?'), stream: true });
    expect(first.reasoningDetails).toHaveLength(2);
    const history: ChatMessage[] = [
      ...userSays('sleep?'),
      assistantMessageFor(first),
      ...first.toolCalls.map((c) => toolResultMessage(c, '{"rows":[]}')),
    ];
    expect((await callGateway(cfg, { messages: history, stream: true })).text).toBe('Seven nights read.');
    expect(gw.requests).toHaveLength(3);
    // learnt: the next request leaves them out at once
    expect((await callGateway(cfg, { messages: history, stream: true })).text).toBe('Seven nights read.');
    expect(gw.requests).toHaveLength(4);
  });
});
