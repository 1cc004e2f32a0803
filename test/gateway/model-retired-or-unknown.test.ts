// A model name the provider refuses in words other than "not found": Groq's "The model `x` has
// been decommissioned and is no longer supported" (400 model_decommissioned), OpenAI's "The model
// `x` has been deprecated", DeepSeek's 400 "Model Not Exist", OpenRouter's 400 "x is not a valid
// model ID". Read as any 400, the person was told the model "could not answer this time" and to
// try again, which fails the same way for ever. A retired model is now told as retired, an
// unknown one as unknown, each pointing at CHAT_MODEL, and neither is asked again. OpenAI's 403
// "Project `x` does not have access to model `y`" was told as a refused API key, though the key
// is fine: it is now told as a model the key may not use.
import { expect, it } from 'vitest';
import type { ScriptStep } from '../helpers/scripted-gateway.js';
import { agentTurn } from './agent-turn.js';
import { dataEvent, scriptedGatewayPerTest, sseStep } from './wire.js';

const gw = scriptedGatewayPerTest();

const GROQ_DECOMMISSIONED = {
  message:
    'The model `llama-3.1-70b-versatile` has been decommissioned and is no longer supported. Please refer to https://console.groq.com/docs/deprecations for a recommendation on which model to use instead.',
  type: 'invalid_request_error',
  code: 'model_decommissioned',
};

const cases: Array<{ name: string; step: ScriptStep; says: RegExp }> = [
  {
    name: "Groq's 400 model_decommissioned",
    step: { kind: 'error', status: 400, body: { error: GROQ_DECOMMISSIONED } },
    says: /has been retired by its provider/,
  },
  {
    name: "Groq's decommissioned model relayed inside a started stream",
    step: sseStep(dataEvent({ error: { ...GROQ_DECOMMISSIONED, code: 400 } })),
    says: /has been retired by its provider/,
  },
  {
    name: "OpenAI's deprecated model (404 model_not_found)",
    step: {
      kind: 'error',
      status: 404,
      body: {
        error: {
          message:
            'The model `text-davinci-003` has been deprecated, learn more here: https://platform.openai.com/docs/deprecations',
          type: 'invalid_request_error',
          param: null,
          code: 'model_not_found',
        },
      },
    },
    says: /has been retired by its provider/,
  },
  {
    name: "DeepSeek's 400 Model Not Exist",
    step: {
      kind: 'error',
      status: 400,
      body: {
        error: {
          message: 'Model Not Exist',
          type: 'invalid_request_error',
          param: null,
          code: 'invalid_request_error',
        },
      },
    },
    says: /does not know this model/,
  },
  {
    name: "OpenRouter's 400 not a valid model ID",
    step: {
      kind: 'error',
      status: 400,
      body: { error: { message: 'deepseek-chat-v9 is not a valid model ID', code: 400 } },
    },
    says: /does not know this model/,
  },
  {
    name: "OpenAI's 403 for a model the key's project may not use",
    step: {
      kind: 'error',
      status: 403,
      body: {
        error: {
          message: 'Project `proj_Xk2a9` does not have access to model `gpt-4o-mini`',
          type: 'invalid_request_error',
          param: null,
          code: 'model_not_found',
        },
      },
    },
    says: /This API key may not use the model set in CHAT_MODEL/,
  },
];

for (const { name, step, says } of cases) {
  it(`${name}: told to choose another model in CHAT_MODEL, not asked again`, async () => {
    gw.script(step, step, step);
    const { result } = await agentTurn(gw, { stream: true, gateway: { maxRetries: 2, retryBaseDelayMs: 1 } });
    expect(gw.requests).toHaveLength(1);
    expect(result.error).toMatch(says);
    expect(result.error).toMatch(/CHAT_MODEL/);
    expect(result.error).not.toMatch(/could not answer this time|refused the API key/);
  });
}

it('a refusal of something in the request other than the model stays such a refusal', async () => {
  gw.script({
    kind: 'error',
    status: 400,
    body: {
      error: {
        message:
          "Invalid 'messages[1].content': string too long. Expected a string with maximum length 1048576.",
        type: 'invalid_request_error',
        code: 'string_above_max_length',
      },
    },
  });
  const { result } = await agentTurn(gw, { stream: true });
  expect(result.error).toMatch(/could not answer this time/);
  expect(result.error).not.toMatch(/retired|does not know this model/);
});
