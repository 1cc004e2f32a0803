// A request longer than the model's context, in the words of each server that refuses one: it can
// never succeed as sent, so it is told as a conversation too long (start a new one, ask for less)
// and never asked again, whatever the status (some servers say 500) and whether it came as the
// status line or as an error event of a started stream. Read as any other refusal, the person
// was told to try again, which could only fail the same way, and a 500 was retried.
import { expect, it } from 'vitest';
import { gatewayFailure as failureCopy } from '../../src/chat/agent/copy.js';
import { callGateway } from '../../src/chat/gateway/client.js';
import { configFor, gatewayFailure, userSays } from './support.js';
import { scriptedGatewayPerTest } from './wire.js';

const gw = scriptedGatewayPerTest();

const wordings: Array<{ who: string; status: number; body: unknown }> = [
  {
    who: "Gemini's OpenAI-compatible endpoint (a list body)",
    status: 400,
    body: [
      {
        error: {
          code: 400,
          message: 'The input token count (1200293) exceeds the maximum number of tokens allowed (1048576).',
          status: 'INVALID_ARGUMENT',
        },
      },
    ],
  },
  {
    who: 'vLLM (the engine refusing the prompt)',
    status: 400,
    body: {
      object: 'error',
      message:
        'The decoder prompt (length 21535) is longer than the maximum model length of 16384. Make sure that `max_model_len` is no smaller than the number of text tokens.',
      type: 'BadRequestError',
      param: null,
      code: 400,
    },
  },
  {
    who: 'vLLM, older wording, said with 500',
    status: 500,
    body: { error: { message: 'Prompt length of 5016 is longer than the maximum model length of 4096.' } },
  },
  {
    who: 'SGLang',
    status: 400,
    body: {
      object: 'error',
      message: "The input (61709 tokens) is longer than the model's context length (40960 tokens).",
      type: 'BadRequestError',
      param: null,
      code: 400,
    },
  },
  {
    who: 'SGLang, another wording',
    status: 400,
    body: {
      error: { message: 'Input length (160062 tokens) exceeds the maximum allowed length (59862 tokens).' },
    },
  },
  {
    who: 'xAI',
    status: 400,
    body: {
      code: 'Client specified an invalid argument',
      error: "This model's maximum prompt length is 131072 but the request contains 136973 tokens.",
    },
  },
  {
    who: 'LM Studio',
    status: 400,
    body: {
      error:
        'Trying to keep the first 15857 tokens when context the overflows. However, the model is loaded with context length of only 4096 tokens, which is not enough. Try to load the model with a larger context length, or provide a shorter input',
    },
  },
  {
    who: 'Hugging Face TGI',
    status: 422,
    body: {
      error:
        'Input validation error: `inputs` tokens + `max_new_tokens` must be <= 4096. Given: 4000 `inputs` tokens and 1000 `max_new_tokens`',
      error_type: 'validation',
    },
  },
  {
    who: 'Moonshot (Kimi)',
    status: 400,
    body: {
      error: {
        message: 'Invalid request: Your request exceeded model token limit: 262144 (requested: 269030)',
        type: 'invalid_request_error',
      },
    },
  },
  {
    who: 'Moonshot, older wording',
    status: 400,
    body: { error: { message: 'model max length exceeded, max length:8192', type: 'invalid_request_error' } },
  },
  {
    who: 'DashScope (Qwen)',
    status: 400,
    body: {
      error: {
        message: '<400> InternalError.Algo.InvalidParameter: Range of input length should be [1, 204800]',
        type: 'invalid_request_error',
        param: null,
        code: 'invalid_parameter_error',
      },
    },
  },
  {
    who: 'Zhipu (GLM), in Chinese',
    status: 400,
    body: { error: { code: '1261', message: 'Prompt 超长' } },
  },
];

for (const w of wordings) {
  it(`${w.who}: told as a conversation too long, asked once`, async () => {
    gw.script({ kind: 'error', status: w.status, body: w.body as object }, { kind: 'reply', text: 'never' });
    const cfg = configFor(gw.url, { maxRetries: 2, retryBaseDelayMs: 1 });
    const err = await gatewayFailure(callGateway(cfg, { messages: userSays('x'), stream: true }));
    expect(err).toMatchObject({ reason: 'request_too_large', retryable: false });
    expect(failureCopy(err).error).toMatch(/too long for the model/);
    expect(gw.requests).toHaveLength(1);
  });
}

it('LM Studio running out of context mid-answer, as an error event of the stream: the same', async () => {
  const error = {
    error:
      'Reached context length of 32000 tokens with model (arch: gpt-oss) that does not currently support mid-generation context overflow. Try reloading with a larger context length or shortening the prompt/chat.',
  };
  gw.script(
    { kind: 'bytes', chunks: [`data: ${JSON.stringify(error)}\n\n`] },
    { kind: 'reply', text: 'never' },
  );
  const cfg = configFor(gw.url, { maxRetries: 2, retryBaseDelayMs: 1 });
  const err = await gatewayFailure(callGateway(cfg, { messages: userSays('x'), stream: true }));
  expect(err).toMatchObject({ reason: 'request_too_large', retryable: false });
  expect(gw.requests).toHaveLength(1);
});

it('a limit of input tokens per minute is a rate limit, not a conversation too long', async () => {
  gw.script({
    kind: 'error',
    status: 429,
    headers: { 'retry-after': '3' },
    body: {
      type: 'error',
      error: {
        type: 'rate_limit_error',
        message:
          'This request would exceed the rate limit for your organization of 40,000 input tokens per minute. The input length exceeds your remaining allowance; please retry later.',
      },
    },
  });
  const err = await gatewayFailure(callGateway(configFor(gw.url), { messages: userSays('x'), stream: true }));
  expect(err.kind).toBe('rate_limited');
});
