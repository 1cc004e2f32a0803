// Stream quirks found in public bug reports that Klebb already read right when checked; kept as
// guards. OpenRouter reports an upstream failure after the stream started as a chunk with a
// top-level `error` and `finish_reason: "error"` (damianvtran/local-operator#223,
// diegosouzapw/OmniRoute#8210): the turn fails with that error, never an empty or short success.
// vLLM with continuous usage stats puts a growing `usage` on every chunk (vllm-project/vllm#7262):
// the last one counts. Azure ends with `delta: null` (openai/openai-python#1677). Proxies send
// empty `data:` lines as keep-alives (netease-lcap/wave-agent#1326). A finish_reason `length`
// inside a tool call means its arguments were cut off: the call is never run.
import { expect, it } from 'vitest';
import { callGateway } from '../../src/chat/gateway/client.js';
import type { ScriptStep } from '../helpers/scripted-gateway.js';
import { configFor, gatewayFailure, userSays } from './support.js';
import { choiceEvent, DONE, functionTools, scriptedGatewayPerTest, sseStep } from './wire.js';

const gw = scriptedGatewayPerTest();

const tools = functionTools('read_rows');
const chunk = choiceEvent;
const sse = sseStep;
const ask = (step: ScriptStep) => {
  gw.script(step);
  return callGateway(configFor(gw.url), { messages: userSays('water'), stream: true, tools });
};

it('an in-band error chunk with finish_reason error after some text: the turn fails with that error', async () => {
  const err = await gatewayFailure(
    ask(
      sse(
        chunk({ delta: { content: 'You dr' } }),
        chunk(
          { delta: { content: '' }, finish_reason: 'error' },
          {
            error: {
              code: 502,
              message: 'Provider disconnected',
              metadata: { error_type: 'provider_unavailable' },
            },
          },
        ),
        DONE,
      ),
    ),
  );
  expect(err.message).toMatch(/Provider disconnected/);
  expect(err.partialText).toBe('You dr');
});

it('usage on every chunk, growing: the last one counts', async () => {
  const usage = (n: number) => ({ usage: { prompt_tokens: 16, completion_tokens: n, total_tokens: 16 + n } });
  const result = await ask(
    sse(
      chunk({ delta: { content: 'You ' } }, usage(1)),
      chunk({ delta: { content: 'did.' }, finish_reason: 'stop' }, usage(2)),
      DONE,
    ),
  );
  expect(result.usage?.completionTokens).toBe(2);
});

it('delta null on the finishing chunk, and empty data lines between events: the answer', async () => {
  const result = await ask(
    sse(
      'data:\n\n',
      chunk({ delta: { content: 'You did.' } }),
      'data: \n\n',
      chunk({ delta: null, finish_reason: 'stop' }),
      DONE,
    ),
  );
  expect(result.text).toBe('You did.');
  expect(result.finishReason).toBe('stop');
});

it('one event written over several data lines: read as one chunk', async () => {
  const result = await ask(
    sse(
      'data: {"choices":\ndata: [{"index":0,"delta":{"content":"You did."},"finish_reason":"stop"}]}\n\n',
      DONE,
    ),
  );
  expect(result.text).toBe('You did.');
});

it('finish_reason length while a tool call was streaming: the call is not run', async () => {
  const err = await gatewayFailure(
    ask(
      sse(
        chunk({
          delta: {
            tool_calls: [
              {
                index: 0,
                id: 'c1',
                type: 'function',
                function: { name: 'read_rows', arguments: '{"id": "wat' },
              },
            ],
          },
        }),
        chunk({ delta: {}, finish_reason: 'length' }),
        DONE,
      ),
    ),
  );
  expect(err.reason).toBe('length');
});
