// Azure OpenAI's content filter reports its verdict per choice in `content_filter_results`; with
// the asynchronous filter it runs behind the stream, so the verdict comes after the text it is
// about: a chunk of its own with an empty delta or none at all (only `content_filter_results` and
// `content_filter_offsets`, openai/openai-python#1677, uezo/aiavatarkit#124), sometimes after the
// finish_reason, and a finish_reason `content_filter` may follow an earlier `stop`. Whichever
// chunk brings it, a category with `filtered: true` fails the answer as filtered: it is never
// returned as a normal answer and its tool calls never run. Verdicts that block nothing (`filtered:
// false`, only `detected`) change nothing.
import { expect, it } from 'vitest';
import { callGateway } from '../../src/chat/gateway/client.js';
import type { ScriptStep } from '../helpers/scripted-gateway.js';
import { configFor, gatewayFailure, userSays } from './support.js';
import {
  type Body,
  choiceEvent,
  DONE,
  dataEvent,
  functionTools,
  scriptedGatewayPerTest,
  sseStep,
} from './wire.js';

const gw = scriptedGatewayPerTest();

const tools = functionTools('append_row');
const safe = {
  hate: { filtered: false, severity: 'safe' },
  self_harm: { filtered: false, severity: 'safe' },
  sexual: { filtered: false, severity: 'safe' },
  violence: { filtered: false, severity: 'safe' },
};
const blocked = { ...safe, violence: { filtered: true, severity: 'medium' } };
const offsets = { check_offset: 0, start_offset: 0, end_offset: 40 };

const chunk = (choice: Body, extra: Body = {}) =>
  choiceEvent({ finish_reason: null, ...choice }, { id: 'chatcmpl-1', model: 'gpt-4o', ...extra });
// Azure's first event: the verdict on the prompt, with no choice and empty names
const promptChunk = dataEvent({
  id: '',
  object: '',
  model: '',
  choices: [],
  prompt_filter_results: [{ prompt_index: 0, content_filter_results: safe }],
});
const text = (t: string, results: Body = safe) =>
  chunk({ delta: { content: t }, content_filter_results: results });
const stop = chunk({ delta: {}, finish_reason: 'stop' });
const sse = sseStep;

async function filteredFailure(step: ScriptStep, extra = {}) {
  gw.script(step);
  const err = await gatewayFailure(
    callGateway(configFor(gw.url, extra), { messages: userSays('tell me'), stream: true, tools }),
  );
  expect(err.kind).toBe('failed');
  expect(err.reason).toBe('content_filter');
  return err;
}

it('a verdict on a choice with an empty delta, after the text: fails as filtered', async () => {
  const err = await filteredFailure(
    sse(
      promptChunk,
      text('Here is '),
      text('how to '),
      chunk({ delta: {}, content_filter_results: blocked }),
      stop,
      DONE,
    ),
  );
  expect(err.partialText).toBe('Here is how to ');
});

it('a verdict in a chunk with no delta at all, after the finish_reason: fails as filtered', async () => {
  await filteredFailure(
    sse(
      text('Here is '),
      text('the text.'),
      stop,
      chunk({
        content_filter_results: { protected_material_text: { detected: true, filtered: true } },
        content_filter_offsets: offsets,
      }),
      DONE,
    ),
  );
});

it('finish_reason content_filter followed by a later stop: fails as filtered', async () => {
  await filteredFailure(
    sse(
      text('Here is '),
      chunk({ delta: {}, finish_reason: 'content_filter', content_filter_results: blocked }),
      stop,
      DONE,
    ),
  );
});

it('a verdict on the chunk that carries the finish_reason, while the stream ends without [DONE]: fails as filtered', async () => {
  await filteredFailure(
    sse(text('Here is '), chunk({ delta: {}, finish_reason: 'stop', content_filter_results: blocked })),
  );
});

it('a custom blocklist hit (details list): fails as filtered', async () => {
  const blocklist = {
    custom_blocklists: { filtered: true, details: [{ filtered: true, id: 'health-terms' }] },
  };
  await filteredFailure(
    sse(text('Here is '), stop, chunk({ delta: {}, content_filter_results: blocklist }), DONE),
  );
});

it('a verdict that comes well after the finish_reason still counts: the reply waits for [DONE]', async () => {
  // the finish grace would otherwise settle the reply as answered before the verdict arrives
  await filteredFailure(
    {
      kind: 'bytes',
      chunkDelayMs: 200,
      chunks: [
        text('Here is the text.'),
        stop,
        chunk({ content_filter_results: blocked, content_filter_offsets: offsets }),
        DONE,
      ],
    },
    { finishGraceMs: 10 },
  );
});

it('a tool call answered, then a blocking verdict: fails as filtered, nothing to run', async () => {
  await filteredFailure(
    sse(
      chunk({
        delta: {
          tool_calls: [
            {
              index: 0,
              id: 'c1',
              type: 'function',
              function: { name: 'append_row', arguments: '{"id":"water"}' },
            },
          ],
        },
      }),
      chunk({ delta: {}, finish_reason: 'tool_calls' }),
      chunk({ content_filter_results: blocked }),
      DONE,
    ),
  );
});

it('verdicts that block nothing (filtered false, only detected): the answer as usual', async () => {
  gw.script(
    sse(
      promptChunk,
      text('Here is '),
      text('the text.'),
      stop,
      chunk({
        content_filter_results: { ...safe, protected_material_code: { filtered: false, detected: true } },
        content_filter_offsets: offsets,
      }),
      chunk({
        content_filter_results: {
          error: { code: 'content_filter_error', message: 'The contents are not filtered' },
        },
      }),
      DONE,
    ),
  );
  const result = await callGateway(configFor(gw.url), { messages: userSays('tell me'), stream: true, tools });
  expect(result.text).toBe('Here is the text.');
  expect(result.finishReason).toBe('stop');
});

const whole = (choice: Body, extra: Body = {}): ScriptStep => ({
  kind: 'bytes',
  headers: { 'Content-Type': 'application/json' },
  chunks: [
    JSON.stringify({
      id: 'chatcmpl-1',
      object: 'chat.completion',
      model: 'gpt-4o',
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: 'Here is the text.' },
          finish_reason: 'stop',
          ...choice,
        },
      ],
      ...extra,
    }),
  ],
});

it('a whole reply whose choice verdict blocked it, finish_reason stop: fails as filtered', async () => {
  gw.script(whole({ content_filter_results: blocked }));
  const err = await gatewayFailure(callGateway(configFor(gw.url), { messages: userSays('tell me'), tools }));
  expect(err.reason).toBe('content_filter');
});

it('a whole reply whose prompt verdict blocked it: fails as filtered', async () => {
  gw.script(whole({}, { prompt_filter_results: [{ prompt_index: 0, content_filter_results: blocked }] }));
  const err = await gatewayFailure(callGateway(configFor(gw.url), { messages: userSays('tell me'), tools }));
  expect(err.reason).toBe('content_filter');
});

it('a whole reply with verdicts that block nothing: the answer', async () => {
  gw.script(
    whole(
      { content_filter_results: safe },
      { prompt_filter_results: [{ prompt_index: 0, content_filter_results: safe }] },
    ),
  );
  const result = await callGateway(configFor(gw.url), { messages: userSays('tell me'), tools });
  expect(result.text).toBe('Here is the text.');
});
