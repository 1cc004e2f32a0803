// A provider's content filter refusing the message (Azure OpenAI's 400 content_filter, the same
// relayed inside a started stream or by LiteLLM, OpenRouter's 403 moderation "Your input was
// flagged for \"self-harm\"", OpenAI's "flagged as potentially violating our usage policy") was
// told as "could not answer this time, please try again", which is refused the same way, or, for
// OpenRouter's 403, as a refused API key the person would go and check for nothing. The same for
// DeepSeek's "Content Exists Risk", Moonshot's "considered high risk", DashScope's
// DataInspectionFailed and Zhipu's 1301 in Chinese. A health
// dashboard meets these filters (self-harm, doses, sexual health). The person is now told the
// filter refused the message, to ask in other words or use a model without that filter, and the
// request is never asked again. An answer the filter stopped is told as that, not "try again".
import { expect, it } from 'vitest';
import type { ScriptStep } from '../helpers/scripted-gateway.js';
import { agentTurn } from './agent-turn.js';
import { choiceEvent, DONE, dataEvent, scriptedGatewayPerTest, sseStep } from './wire.js';

const gw = scriptedGatewayPerTest();

const AZURE_PROMPT_FILTERED = {
  message:
    "The response was filtered due to the prompt triggering Azure OpenAI's content management policy. Please modify your prompt and retry. To learn more about our content filtering policies please read our documentation: https://go.microsoft.com/fwlink/?linkid=2198766",
  type: null,
  param: 'prompt',
  code: 'content_filter',
  status: 400,
  innererror: {
    code: 'ResponsibleAIPolicyViolation',
    content_filter_result: {
      hate: { filtered: false, severity: 'safe' },
      self_harm: { filtered: true, severity: 'medium' },
      sexual: { filtered: false, severity: 'safe' },
      violence: { filtered: false, severity: 'safe' },
    },
  },
};

const refusals: Array<{ name: string; step: ScriptStep }> = [
  {
    name: "Azure OpenAI's 400 content_filter",
    step: { kind: 'error', status: 400, body: { error: AZURE_PROMPT_FILTERED } },
  },
  {
    name: "OpenRouter's 403 moderation",
    step: {
      kind: 'error',
      status: 403,
      body: {
        error: {
          code: 403,
          message:
            'anthropic/claude-3-5-haiku requires moderation on Amazon Bedrock. Your input was flagged for "self-harm/intent". No credits were charged.',
          metadata: {
            reasons: ['self-harm/intent'],
            flagged_input: 'how many of my pills',
            provider_name: 'Amazon Bedrock',
            model_slug: 'anthropic/claude-3-5-haiku',
          },
        },
      },
    },
  },
  {
    name: "LiteLLM's ContentPolicyViolationError",
    step: {
      kind: 'error',
      status: 400,
      body: {
        error: {
          message: `litellm.BadRequestError: litellm.ContentPolicyViolationError: litellm.ContentPolicyViolationError: AzureException - ${AZURE_PROMPT_FILTERED.message}\nmodel=azure/gpt-4o. content_policy_fallback=None. fallbacks=None.`,
          type: null,
          param: null,
          code: '400',
        },
      },
    },
  },
  {
    name: "OpenAI's flagged prompt",
    step: {
      kind: 'error',
      status: 400,
      body: {
        error: {
          message:
            'Invalid prompt: your prompt was flagged as potentially violating our usage policy. Please try again with a different prompt.',
          type: 'invalid_request_error',
          param: null,
          code: 'invalid_prompt',
        },
      },
    },
  },
  {
    name: "Azure's refusal as the only event of a started stream",
    step: sseStep(dataEvent({ error: AZURE_PROMPT_FILTERED })),
  },
  {
    name: "OpenRouter's moderation inside a started stream",
    step: sseStep(
      dataEvent({
        error: {
          code: 403,
          message: 'openai/gpt-4o requires moderation on OpenAI. Your input was flagged for "self-harm".',
          metadata: { reasons: ['self-harm'], provider_name: 'OpenAI' },
        },
      }),
    ),
  },
  {
    name: "DeepSeek's 400 Content Exists Risk",
    step: {
      kind: 'error',
      status: 400,
      body: {
        error: {
          message: 'Content Exists Risk',
          type: 'invalid_request_error',
          param: null,
          code: 'invalid_request_error',
        },
      },
    },
  },
  {
    name: "Moonshot's high-risk refusal",
    step: {
      kind: 'error',
      status: 400,
      body: {
        error: {
          message: 'The request was rejected because it was considered high risk',
          type: 'content_filter',
        },
      },
    },
  },
  {
    name: "DashScope's DataInspectionFailed",
    step: {
      kind: 'error',
      status: 400,
      body: {
        error: {
          message: 'Input data may contain inappropriate content.',
          type: 'data_inspection_failed',
          param: null,
          code: 'data_inspection_failed',
        },
      },
    },
  },
  {
    name: "Zhipu's 1301 in Chinese",
    step: {
      kind: 'error',
      status: 400,
      body: {
        error: {
          code: '1301',
          message:
            '系统检测到输入或生成内容可能包含不安全或敏感内容，请您避免输入易产生敏感内容的提示语，感谢您的配合。',
        },
      },
    },
  },
];

for (const { name, step } of refusals) {
  it(`${name}: told as the content filter, not a key or "try again", and not asked again`, async () => {
    gw.script(step, step, step);
    const { result } = await agentTurn(gw, {
      stream: true,
      question: 'I took too many of my pills, what now?',
      gateway: { maxRetries: 2, retryBaseDelayMs: 1 },
    });
    expect(gw.requests).toHaveLength(1);
    expect(result.error).toMatch(/content filter refused this message/);
    expect(result.error).toMatch(/ask in other words/);
    // the provider's own words are quoted; Klebb's sentence neither blames the key nor says "try again"
    expect(result.error).not.toMatch(/refused the API key|could not answer this time|Please try again\.$/);
  });
}

it('an answer the content filter stopped is told as that, not "try again"', async () => {
  const stopped = sseStep(
    choiceEvent({ delta: { role: 'assistant', content: 'Taking more than' } }),
    choiceEvent({ delta: {}, finish_reason: 'content_filter' }),
    DONE,
  );
  gw.script(stopped, stopped, stopped);
  const { result } = await agentTurn(gw, { stream: true, gateway: { maxRetries: 2, retryBaseDelayMs: 1 } });
  expect(gw.requests).toHaveLength(1);
  expect(result.error).toMatch(/content filter stopped the model's answer/);
  expect(result.error).not.toMatch(/please try again/i);
});

it('a 403 refusing the key is still told as the key', async () => {
  gw.script({
    kind: 'error',
    status: 403,
    body: { error: { code: 403, message: 'Invalid API key', type: 'authentication_error' } },
  });
  const { result } = await agentTurn(gw, { stream: true });
  expect(result.error).toMatch(/refused the API key/);
  expect(result.error).not.toMatch(/content filter/);
});
