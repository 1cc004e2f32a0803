// A model server whose chat template for the model fails on the request: LM Studio's 'Error
// rendering prompt with jinja template: "Unknown StringValue filter: safe"' (400, or a lone error
// event in a 200 stream; https://github.com/lmstudio-ai/lmstudio-bug-tracker/issues/1342,
// https://github.com/lmstudio-ai/lmstudio-bug-tracker/issues/2180), vLLM's
// "jinja2.exceptions.TemplateError: …" said with 500
// (https://github.com/lmstudio-ai/lmstudio-bug-tracker/issues/842 has the same template's words).
// The person read "The model could not answer this time … Please try again", or, for the 500,
// "unavailable right now" after it was asked three times; the same request fails the same way
// until the template or the model changes, so it is asked once and the advice says that.
import { expect, it } from 'vitest';
import { gatewayFailure as failureCopy } from '../../src/chat/agent/copy.js';
import { callGateway } from '../../src/chat/gateway/client.js';
import type { ScriptStep } from '../helpers/scripted-gateway.js';
import { agentTurn } from './agent-turn.js';
import { configFor, gatewayFailure, userSays } from './support.js';
import { dataEvent, functionTools, scriptedGatewayPerTest, sseStep } from './wire.js';

const gw = scriptedGatewayPerTest();

const LM_STUDIO =
  'Error rendering prompt with jinja template: "Unknown StringValue filter: safe".\n\nThis is usually an issue with the model\'s prompt template. If you are using a popular model, you can try to search the model under lmstudio-community, which will have fixed prompt templates. If you cannot find one, you are welcome to post this issue to our discord or issue tracker on GitHub. Alternatively, if you know how to write jinja templates, you can override the prompt template in My Models > model settings > Prompt Template.';

const cases: Array<[string, ScriptStep]> = [
  ["LM Studio's 400", { kind: 'error', status: 400, body: { error: LM_STUDIO } }],
  ["LM Studio's error event in a 200 stream", sseStep(dataEvent({ error: { message: LM_STUDIO } }))],
  [
    "vLLM's 500",
    {
      kind: 'error',
      status: 500,
      body: {
        object: 'error',
        message:
          'jinja2.exceptions.TemplateError: Cannot pass both content and thinking in an assistant message with tool calls!',
        type: 'InternalServerError',
        code: 500,
      },
    },
  ],
];

for (const [who, step] of cases) {
  it(`${who}: asked once, told that the model's chat template fails on its server`, async () => {
    gw.script(step, step, step);
    const cfg = configFor(gw.url, { maxRetries: 2, retryBaseDelayMs: 1 });
    const err = await gatewayFailure(
      callGateway(cfg, { messages: userSays('hi'), tools: functionTools('read_rows'), stream: true }),
    );
    expect(err.reason).toBe('chat_template');
    const copy = failureCopy(err).error;
    expect(copy).toMatch(/^The model's server could not build the model's prompt/);
    expect(copy).toMatch(/Trying again will not help/);
    expect(copy).not.toMatch(/Please try again/);
    expect(gw.requests).toHaveLength(1);
  });
}

it('through the agent loop the person reads the same advice', async () => {
  gw.script(cases[0][1]);
  const turn = await agentTurn(gw, { stream: true });
  expect(turn.result.error).toMatch(/^The model's server could not build the model's prompt/);
});

it('a plain 500 is still asked again', async () => {
  const step: ScriptStep = { kind: 'error', status: 500, body: { error: { message: 'Internal error' } } };
  gw.script(step, { kind: 'reply', text: 'Fine now.' });
  const cfg = configFor(gw.url, { maxRetries: 2, retryBaseDelayMs: 1 });
  expect((await callGateway(cfg, { messages: userSays('hi'), stream: true })).text).toBe('Fine now.');
});
