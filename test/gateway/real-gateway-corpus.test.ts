// Real gateway behaviours taken from public bug reports, each served byte for byte from our own
// fixture (test/fixtures/gateway/<name>.txt, whose header says what the behaviour is). Sources:
//   arguments-as-growing-snapshots: https://github.com/NousResearch/hermes-agent/pull/35718
//   arguments-replayed-whole-after-deltas: https://github.com/microsoft/agent-framework/pull/4200
//   arguments-reserialised-in-closing-chunk: https://github.com/elizaOS/eliza/pull/16973
//   cache-control-extra-inputs-anthropic-shape: https://github.com/cg-dot/vertexai-cf-workers/pull/21
//   cache-control-refused-inside-nested-error: https://github.com/router-for-me/CLIProxyAPI/issues/512
//   call-ids-with-colons-repeat-per-turn: https://github.com/can1357/oh-my-pi/issues/2055
//   cumulative-content-snapshots: https://github.com/swuecho/chat/issues/687
//   completions-style-text-choices: https://github.com/vllm-project/vllm/issues/13197
//   chunks-repeat-text-in-message-and-number-choices: https://github.com/microsoft/foundry-local/issues/144
//   error-event-after-text: https://github.com/zyycn/codex-proxy-rs/pull/90
//   error-field-instead-of-data: https://github.com/ggml-org/llama.cpp/pull/16109
//   error-object-inside-stream: https://github.com/zendev-sh/goai/pull/110
//   event-stream-labelled-json: https://github.com/xiaoliu10/claude-code-router-next/pull/45
//   finish-then-keep-alives-without-done: https://github.com/maximhq/bifrost/issues/6784
//   include-usage-refused-with-500: https://github.com/BerriAI/litellm/issues/9916
//   legacy-function-call-delta: https://github.com/unslothai/unsloth/pull/10362
//   missing-thought-signature-refused: https://github.com/lbjlaq/Antigravity-Manager/issues/938
//   one-id-on-parallel-calls: https://github.com/HKUDS/nanobot/pull/3943
//   one-id-on-parallel-calls-buffered: https://github.com/HKUDS/nanobot/issues/4059
//   no-index-calls-with-thought-signatures: https://github.com/noho/dayu-agent/issues/45
//   parallel-calls-same-index-no-ids: https://github.com/huggingface/smolagents/pull/1958
//   parallel-calls-share-index-0: https://github.com/ai-dynamo/dynamo/pull/4723
//   json-lines-stream: https://github.com/hackclub/ai/issues/17
//   reasoning-details-only: https://github.com/langchain-ai/langchainjs/issues/11699
//   reasoning-inline-in-think-tags: https://github.com/continuedev/continue/issues/3832
//   reasoning-with-only-a-closing-tag: https://github.com/open-webui/open-webui/issues/9808
//   same-call-id-in-every-round-trip: https://github.com/NousResearch/hermes-agent/pull/11722
//   same-call-at-two-indexes: https://github.com/mudler/LocalAI/issues/9722
//   same-id-on-every-fragment: https://github.com/JetBrains/koog/pull/2052
//   single-newline-events-held-open: https://github.com/cohere-ai/cohere-python/issues/756
//   stream-options-unknown-parameter: https://github.com/QuantumNous/new-api/issues/418
//   thought-signature-under-vertex-key: https://github.com/earendil-works/pi/issues/6733
//   thinking-content-parts: https://github.com/BerriAI/litellm/issues/16272
//   three-calls-translated-under-index-0: https://github.com/mcowger/plexus/issues/691
//   tool-call-id-changes-after-first-fragment: https://github.com/poolsideai/pool/issues/9
//   tool-call-id-format-refused-with-500: https://github.com/jundot/omlx/pull/1997
//   tool-call-id-format-refused: https://github.com/jackmpcollins/magentic/issues/276
//   tools-not-supported: https://github.com/louisho5/picobot/issues/6 (also ollama/ollama#14795)
//   tool-message-name-refused-message-list: https://github.com/partITech/php-mistral/issues/76
//   tool-message-name-refused-message-object: https://github.com/nomtek/mistralai_client_dart/issues/44
//   tool-name-restated-on-every-chunk: https://github.com/NousResearch/hermes-agent/pull/11984
//   tool-name-streamed-in-fragments: https://github.com/continuedev/continue/pull/5849
//   unique-id-on-every-fragment: https://github.com/NousResearch/hermes-agent/pull/5331
//   usage-inside-the-choice: https://github.com/northes/go-moonshot/issues/17
//   usage-under-vendor-key: https://github.com/vercel/ai/issues/1651
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { callGateway } from '../../src/chat/gateway/client.js';
import { assistantMessageFor, toolResultMessage } from '../../src/chat/gateway/history.js';
import { ProviderMemory, TOOLS_OFF_FOR_MS } from '../../src/chat/gateway/provider-memory.js';
import type { ChatMessage, GatewayResult, SystemMessage } from '../../src/chat/gateway/types.js';
import {
  type RecordedRequest,
  type ScriptedGateway,
  startScriptedGateway,
} from '../helpers/scripted-gateway.js';
import { BUFFERED_REPLY_CORPUS, expectAssembled, REPLY_CORPUS } from './corpus.js';
import { configFor, gatewayFailure, recordHooks, userSays } from './support.js';

const OUR_ID = /^[A-Za-z0-9]{9}$/;

let gw: ScriptedGateway;
beforeEach(async () => {
  gw = await startScriptedGateway();
});
afterEach(() => gw.close());

/** The history of a turn after `result`: its assistant message and one reply per call. */
function historyAfter(result: GatewayResult, prompt = 'go'): ChatMessage[] {
  return [
    ...userSays(prompt),
    assistantMessageFor(result),
    ...result.toolCalls.map((c) => toolResultMessage(c, '{"ok":true}')),
  ];
}

// biome-ignore lint/suspicious/noExplicitAny: recorded request bodies are untyped JSON
const msgs = (q: RecordedRequest): any[] => q.body.messages;

describe('streamed replies assemble to what the model meant', () => {
  for (const b of REPLY_CORPUS) {
    it(b.behaviour, async () => {
      gw.script({ kind: 'fixture', name: b.fixture, split: 'lines', chunkDelayMs: 1 });
      const rec = recordHooks();
      let retracted = 0;
      const result = await callGateway(
        configFor(gw.url, { finishGraceMs: 100, idleTimeoutMs: 20_000 }),
        { messages: userSays('go'), stream: true },
        { ...rec.hooks, onRetract: () => retracted++ },
      );
      expectAssembled(result, b.expected);
      // what the user watched arrive is the answer: reasoning taken back when it showed up late
      const shown = retracted > 0 ? '' : rec.tokens.join('');
      if (retracted === 0) expect(shown).toBe(result.text);
    });
  }
});

describe('buffered replies', () => {
  for (const b of BUFFERED_REPLY_CORPUS) {
    it(b.behaviour, async () => {
      gw.script({ kind: 'fixture', name: b.fixture });
      const result = await callGateway(configFor(gw.url), { messages: userSays('go') });
      expectAssembled(result, b.expected);
    });
  }
});

describe('what we send back is ours', () => {
  it('thought signatures on calls without index are echoed on the next request', async () => {
    gw.script(
      { kind: 'fixture', name: 'no-index-calls-with-thought-signatures' },
      {
        kind: 'decide',
        choose: (q) =>
          msgs(q)[1].tool_calls.every((tc: { extra_content?: { google?: { thought_signature?: string } } }) =>
            tc.extra_content?.google?.thought_signature?.startsWith('EjQK'),
          )
            ? { kind: 'reply', text: 'Both cards read.' }
            : { kind: 'fixture', name: 'missing-thought-signature-refused' },
      },
    );
    const cfg = configFor(gw.url);
    const first = await callGateway(cfg, { messages: userSays('read both'), stream: true });
    const second = await callGateway(cfg, { messages: historyAfter(first, 'read both'), stream: true });
    expect(second.text).toBe('Both cards read.');
    const sent = msgs(gw.requests[1])[1].tool_calls;
    expect(sent.map((tc: { extra_content: unknown }) => tc.extra_content)).toEqual([
      { google: { thought_signature: 'EjQKMgEMOdbHJChLX75QUCJjyYlmZ2fake1' } },
      { google: { thought_signature: 'EjQKMgEMOdbHJChLX75QUCJjyYlmZ2fake2' } },
    ]);
  });

  it('a thought signature under another vendor key is echoed as given', async () => {
    gw.script(
      { kind: 'fixture', name: 'thought-signature-under-vertex-key' },
      {
        kind: 'decide',
        choose: (q) =>
          msgs(q)[1].tool_calls[0].extra_content?.vertex?.thought_signature === 'AY89a18IwQsQ8in/fakeSig=='
            ? { kind: 'reply', text: 'Listed.' }
            : { kind: 'fixture', name: 'missing-thought-signature-refused' },
      },
    );
    const cfg = configFor(gw.url);
    const first = await callGateway(cfg, { messages: userSays('list') });
    expect((await callGateway(cfg, { messages: historyAfter(first, 'list') })).text).toBe('Listed.');
  });

  it('the refusal of a call without its thought signature is final: never retried unchanged', async () => {
    gw.script({ kind: 'fixture', name: 'missing-thought-signature-refused' }, { kind: 'reply', text: 'no' });
    const err = await gatewayFailure(
      callGateway(configFor(gw.url, { maxRetries: 2 }), { messages: userSays('x') }),
    );
    expect(err.kind).toBe('failed');
    expect(err.message).toMatch(/thought_signature/);
    expect(gw.requests).toHaveLength(1);
  });

  it('a call id repeated by the model in every round-trip never repeats in what we send', async () => {
    gw.script(
      { kind: 'fixture', name: 'same-call-id-in-every-round-trip' },
      { kind: 'fixture', name: 'same-call-id-in-every-round-trip' },
      {
        kind: 'decide',
        choose: (q) => {
          const ids = msgs(q).flatMap((m: { tool_calls?: Array<{ id: string }> }) =>
            (m.tool_calls ?? []).map((t) => t.id),
          );
          return new Set(ids).size === ids.length && ids.every((id: string) => OUR_ID.test(id))
            ? { kind: 'reply', text: 'Activity read twice.' }
            : {
                kind: 'error',
                status: 400,
                body: { error: { message: "Duplicate value for 'tool_call_id'" } },
              };
        },
      },
    );
    const cfg = configFor(gw.url);
    const history: ChatMessage[] = [...userSays('activity')];
    for (let i = 0; i < 2; i++) {
      const r = await callGateway(cfg, { messages: history });
      expect(r.toolCalls[0].providerId).toBe('b9mgIC84m');
      history.push(assistantMessageFor(r), ...r.toolCalls.map((c) => toolResultMessage(c, '{}')));
    }
    expect((await callGateway(cfg, { messages: history })).text).toBe('Activity read twice.');
  });

  it('a refusal of the id form is not retried or repaired: our ids already have the strict form', async () => {
    gw.script({ kind: 'fixture', name: 'tool-call-id-format-refused' }, { kind: 'reply', text: 'no' });
    const err = await gatewayFailure(
      callGateway(configFor(gw.url, { maxRetries: 2 }), { messages: userSays('x') }),
    );
    expect(err.kind).toBe('failed');
    expect(gw.requests).toHaveLength(1);
  });

  it('the same refusal with status 500 is a deterministic refusal: one request, no retry', async () => {
    gw.script(
      { kind: 'fixture', name: 'tool-call-id-format-refused-with-500' },
      { kind: 'fixture', name: 'tool-call-id-format-refused-with-500' },
      { kind: 'fixture', name: 'tool-call-id-format-refused-with-500' },
    );
    const err = await gatewayFailure(
      callGateway(configFor(gw.url, { maxRetries: 2, retryBaseDelayMs: 1 }), { messages: userSays('x') }),
    );
    expect(err.kind).toBe('failed');
    expect(err.reason).toBe('refused');
    expect(err.retryable).toBe(false);
    expect(gw.requests).toHaveLength(1);
  });
});

describe('a refusal naming something we sent is repaired once and remembered', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'klebb-gw-memory-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('stream_options refused as an unknown parameter: sent again without, and never again after a restart', async () => {
    const file = path.join(dir, 'chat', 'gateway-adaptations.json');
    gw.script(
      { kind: 'fixture', name: 'stream-options-unknown-parameter' },
      { kind: 'reply', text: 'Hi.' },
      { kind: 'reply', text: 'Again.' },
    );
    const first = await callGateway(configFor(gw.url, { memory: new ProviderMemory(file) }), {
      messages: userSays('hi'),
      stream: true,
    });
    expect(first.text).toBe('Hi.');
    expect(gw.requests[0].body.stream_options).toEqual({ include_usage: true });
    expect(gw.requests[1].body.stream_options).toBeUndefined();
    // a new process reads what was learnt
    const again = await callGateway(configFor(gw.url, { memory: new ProviderMemory(file) }), {
      messages: userSays('hi'),
      stream: true,
    });
    expect(again.text).toBe('Again.');
    expect(gw.requests[2].body.stream_options).toBeUndefined();
    expect(gw.requests).toHaveLength(3);
  });

  it('include_usage refused with status 500 is repaired, not retried unchanged', async () => {
    gw.script({ kind: 'fixture', name: 'include-usage-refused-with-500' }, { kind: 'reply', text: 'Fine.' });
    const r = await callGateway(configFor(gw.url, { maxRetries: 2 }), {
      messages: userSays('hi'),
      stream: true,
    });
    expect(r.text).toBe('Fine.');
    expect(gw.requests).toHaveLength(2);
    expect(gw.requests[1].body.stream_options).toBeUndefined();
  });

  for (const fixture of [
    'tool-message-name-refused-message-object',
    'tool-message-name-refused-message-list',
  ]) {
    it(`name on tool messages refused (${fixture.endsWith('object') ? 'message as an object' : 'message as a list'}): sent again without it`, async () => {
      gw.script(
        { kind: 'reply', toolCalls: [{ id: 'x1', name: 'get_recent_activity', arguments: {} }] },
        { kind: 'fixture', name: fixture },
        { kind: 'reply', text: 'Done.' },
      );
      const cfg = configFor(gw.url);
      const first = await callGateway(cfg, { messages: userSays('activity') });
      const r = await callGateway(cfg, { messages: historyAfter(first, 'activity') });
      expect(r.text).toBe('Done.');
      expect(msgs(gw.requests[1])[2].name).toBe('get_recent_activity');
      expect(msgs(gw.requests[2])[2]).not.toHaveProperty('name');
      expect(msgs(gw.requests[2])[2].tool_call_id).toBe(first.toolCalls[0].id);
    });
  }

  for (const [fixture, what] of [
    ['tools-not-supported', 'a model served without tool support'],
    ['tools-need-jinja', "llama.cpp's server started without --jinja, with 500"],
  ]) {
    it(`tools refused by ${what}: asked again without them (never retried as they were), and remembered`, async () => {
      const file = path.join(dir, 'chat', 'gateway-adaptations.json');
      gw.script(
        { kind: 'fixture', name: fixture },
        { kind: 'reply', text: 'I can only chat with this model.' },
        { kind: 'reply', text: 'Still chatting.' },
      );
      const tools = [{ type: 'function' as const, function: { name: 'get_recent_activity' } }];
      const first = await callGateway(configFor(gw.url, { memory: new ProviderMemory(file) }), {
        messages: userSays('hi'),
        tools,
        stream: true,
      });
      expect(first.text).toBe('I can only chat with this model.');
      expect(gw.requests[0].body.tools).toHaveLength(1);
      expect(gw.requests[1].body).not.toHaveProperty('tools');
      expect(gw.requests[1].body).not.toHaveProperty('tool_choice');
      // a new process asks without tools from the start
      const again = await callGateway(configFor(gw.url, { memory: new ProviderMemory(file) }), {
        messages: userSays('hi'),
        tools,
        stream: true,
      });
      expect(again.text).toBe('Still chatting.');
      expect(gw.requests[2].body).not.toHaveProperty('tools');
      expect(gw.requests).toHaveLength(3);
    });
  }

  it('a server that took no tools is offered them again an hour later (its owner may have restarted it with them)', async () => {
    const file = path.join(dir, 'chat', 'gateway-adaptations.json');
    let now = Date.parse('2026-12-06T10:00:00Z');
    const clock = () => now;
    gw.script(
      { kind: 'fixture', name: 'tools-need-jinja' },
      { kind: 'reply', text: 'Words only.' },
      { kind: 'reply', text: 'Still words.' },
      { kind: 'reply', text: 'Tools again.' },
    );
    const tools = [{ type: 'function' as const, function: { name: 'get_recent_activity' } }];
    const ask = () =>
      callGateway(configFor(gw.url, { memory: new ProviderMemory(file, clock) }), {
        messages: userSays('hi'),
        tools,
        stream: true,
      });
    expect((await ask()).text).toBe('Words only.');
    now += TOOLS_OFF_FOR_MS - 60_000;
    expect((await ask()).text).toBe('Still words.');
    expect(gw.requests[2].body).not.toHaveProperty('tools');
    now += 60_000;
    expect((await ask()).text).toBe('Tools again.');
    expect(gw.requests[3].body.tools).toHaveLength(1);
  });

  const system: SystemMessage = {
    role: 'system',
    content: [{ type: 'text', text: 'You are Klebb.', cache_control: { type: 'ephemeral' } }],
  };
  for (const fixture of [
    'cache-control-extra-inputs-anthropic-shape',
    'cache-control-refused-inside-nested-error',
  ]) {
    it(`cache_control refused (${fixture.includes('nested') ? 'inside a nested error' : 'Anthropic error shape'}): sent again without it`, async () => {
      gw.script({ kind: 'fixture', name: fixture }, { kind: 'reply', text: 'Uncached.' });
      const r = await callGateway(configFor(gw.url, { capabilities: { cacheControl: true } }), {
        messages: [system, ...userSays('hi')],
      });
      expect(r.text).toBe('Uncached.');
      expect(gw.requests[0].rawBody).toContain('cache_control');
      expect(gw.requests[1].rawBody).not.toContain('cache_control');
    });
  }
});

describe('the reader', () => {
  it('an error object inside the stream fails the reply with its message', async () => {
    gw.script({ kind: 'fixture', name: 'error-object-inside-stream' });
    const err = await gatewayFailure(
      callGateway(configFor(gw.url), { messages: userSays('x'), stream: true }),
    );
    expect(err.kind).toBe('failed');
    expect(err.message).toMatch(/Compute error/);
  });

  it('an `event: error` after some text fails the reply with its message, the text kept as partial', async () => {
    gw.script({ kind: 'fixture', name: 'error-event-after-text' });
    const err = await gatewayFailure(
      callGateway(configFor(gw.url), { messages: userSays('x'), stream: true }),
    );
    expect(err).toMatchObject({ kind: 'failed', retryable: true, partialText: 'Partial' });
    expect(err.message).toMatch(/currently overloaded/);
  });

  it('an error written on an `error:` line instead of `data:` fails the reply with its message', async () => {
    gw.script({ kind: 'fixture', name: 'error-field-instead-of-data' });
    const err = await gatewayFailure(
      callGateway(configFor(gw.url), { messages: userSays('x'), stream: true }),
    );
    expect(err.kind).toBe('failed');
    expect(err.message).toMatch(/exceeds the available context size/);
    expect(err.retryable).toBe(false);
  });

  it('after a bare closing think tag the model is known to start inside reasoning: its next reply shows none of it', async () => {
    gw.script(
      { kind: 'fixture', name: 'reasoning-with-only-a-closing-tag', split: 'events' },
      { kind: 'fixture', name: 'reasoning-with-only-a-closing-tag', split: 'events' },
    );
    const memory = new ProviderMemory();
    const cfg = configFor(gw.url, { memory });
    let retracts = 0;
    const first = recordHooks();
    await callGateway(
      cfg,
      { messages: userSays('sleep?'), stream: true },
      { ...first.hooks, onRetract: () => retracts++ },
    );
    expect(retracts).toBe(1);
    expect(memory.learned(new URL(gw.url).origin, 'test-model').reasoningStartsInside).toBe(true);
    const second = recordHooks();
    const r = await callGateway(
      cfg,
      { messages: userSays('sleep?'), stream: true },
      { ...second.hooks, onRetract: () => retracts++ },
    );
    expect(retracts).toBe(1);
    expect(second.tokens.join('')).toBe('You slept 7 h 10 min last night.');
    expect(r.text).toBe('You slept 7 h 10 min last night.');
  });
});
