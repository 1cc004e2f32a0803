// A limit that comes back after a wait the error body states itself. Gemini words its free tier's
// per-minute quota as "You exceeded your current quota" and says when to ask again in a RetryInfo
// entry (`retryDelay: "26s"`) or in words ("Please retry in 7.3s"); Azure OpenAI says "Please
// retry after 6 seconds"; a proxy may pass the whole error body on as the text of its own
// message. Such a limit is a rate limit: waited out and asked again when the wait fits, else told
// as "busy, try again in about N", never as an allowance used up for good. A quota with no
// stated wait (OpenAI's insufficient_quota) is still a spent budget.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { gatewayFailure as failureCopy } from '../../src/chat/agent/copy.js';
import { callGateway } from '../../src/chat/gateway/client.js';
import { type ScriptedGateway, type ScriptStep, startScriptedGateway } from '../helpers/scripted-gateway.js';
import { configFor, gatewayFailure, recordHooks, userSays } from './support.js';

let gw: ScriptedGateway;
beforeEach(async () => {
  gw = await startScriptedGateway();
});
afterEach(() => gw.close());

const QUOTA_WORDS =
  'You exceeded your current quota, please check your plan and billing details. For more information on this error, head to: https://ai.google.dev/gemini-api/docs/rate-limits.';

/** Gemini's error object for a free-tier quota (per minute unless told), with the retry delay it states. */
function geminiQuota(
  retryDelay: string,
  message = QUOTA_WORDS,
  quotaId = 'GenerateContentInputTokensPerModelPerMinute-FreeTier',
) {
  return {
    error: {
      code: 429,
      message,
      status: 'RESOURCE_EXHAUSTED',
      details: [
        {
          '@type': 'type.googleapis.com/google.rpc.QuotaFailure',
          violations: [
            {
              quotaMetric: 'generativelanguage.googleapis.com/generate_content_free_tier_input_token_count',
              quotaId,
              quotaDimensions: { location: 'global', model: 'gemini-2.5-flash' },
              quotaValue: '250000',
            },
          ],
        },
        {
          '@type': 'type.googleapis.com/google.rpc.Help',
          links: [
            {
              description: 'Learn more about Gemini API quotas',
              url: 'https://ai.google.dev/gemini-api/docs/rate-limits',
            },
          ],
        },
        { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay },
      ],
    },
  };
}

const refusal = (status: number, body: unknown): ScriptStep => ({
  kind: 'error',
  status,
  body: typeof body === 'string' ? body : (body as object),
});

/** A limit whose body states a wait of about one second, in one of the shapes providers use. */
const shortWaits: Array<[string, ScriptStep]> = [
  [
    "Gemini's OpenAI-compatible endpoint: a list holding the error, the wait in RetryInfo",
    refusal(429, [geminiQuota('1s')]),
  ],
  [
    'a proxy passing the whole Gemini error body on as the text of its own message',
    refusal(429, {
      error: {
        message: `${JSON.stringify(geminiQuota('1s'), null, 2)}\n`,
        code: 429,
        status: 'Too Many Requests',
      },
    }),
  ],
  [
    'the wait only in words, past the part of the message that is shown',
    refusal(429, [
      {
        error: {
          code: 429,
          message: `${QUOTA_WORDS}\n* Quota exceeded for metric: generativelanguage.googleapis.com/generate_content_free_tier_requests, limit: 10, model: gemini-2.0-flash\n* Quota exceeded for metric: generativelanguage.googleapis.com/generate_content_free_tier_input_token_count, limit: 250000, model: gemini-2.0-flash\nPlease retry in 1.2s.`,
          status: 'RESOURCE_EXHAUSTED',
        },
      },
    ]),
  ],
  [
    "Azure OpenAI's words",
    refusal(429, {
      error: {
        code: '429',
        message:
          'Requests to the ChatCompletions_Create Operation under Azure OpenAI API version 2024-02-01 have exceeded call rate limit of your current OpenAI S0 pricing tier. Please retry after 1 second.',
      },
    }),
  ],
];

describe('a limit whose body states a short wait is waited out and asked again', () => {
  for (const [what, step] of shortWaits) {
    it(what, async () => {
      gw.script(step, { kind: 'reply', text: 'Logged 250 ml.' });
      const heard = recordHooks();
      const result = await callGateway(
        configFor(gw.url, { maxRetries: 2, retryBaseDelayMs: 1 }),
        { messages: userSays('water') },
        heard.hooks,
      );
      expect(result.text).toBe('Logged 250 ml.');
      expect(gw.requests).toHaveLength(2);
      expect(heard.retries[0].error).toMatchObject({ kind: 'rate_limited' });
      expect(heard.retries[0].waitMs).toBeGreaterThanOrEqual(1_000);
    });
  }
});

it('a stated wait longer than the turn has left: told as busy for that long, not as an allowance used up', async () => {
  gw.script(refusal(429, [geminiQuota('26s')]));
  const err = await gatewayFailure(
    callGateway(configFor(gw.url, { maxRetries: 2, deadlineAtMs: Date.now() + 5_000 }), {
      messages: userSays('water'),
    }),
  );
  expect(err).toMatchObject({ kind: 'rate_limited', retryAfterMs: 26_000 });
  expect(failureCopy(err).error).toBe(
    'The model is busy right now (rate limited). Please try again in about 26 seconds.',
  );
  expect(err.message).toContain('You exceeded your current quota');
  expect(gw.requests).toHaveLength(1);
});

it('the same quota reported inside a stream: waited out and asked again', async () => {
  gw.script(
    {
      kind: 'bytes',
      headers: { 'Content-Type': 'text/event-stream' },
      chunks: [`data: ${JSON.stringify(geminiQuota('1s'))}\n\n`],
    },
    { kind: 'reply', text: 'Logged 250 ml.' },
  );
  const heard = recordHooks();
  const result = await callGateway(
    configFor(gw.url, { maxRetries: 2, retryBaseDelayMs: 1 }),
    { messages: userSays('water'), stream: true },
    heard.hooks,
  );
  expect(result.text).toBe('Logged 250 ml.');
  expect(heard.retries[0].waitMs).toBeGreaterThanOrEqual(1_000);
});

it('a quota with no stated wait is still a spent allowance, never asked again', async () => {
  gw.script(
    refusal(429, {
      error: {
        message: QUOTA_WORDS,
        type: 'insufficient_quota',
        code: 'insufficient_quota',
      },
    }),
  );
  const err = await gatewayFailure(
    callGateway(configFor(gw.url, { maxRetries: 2, retryBaseDelayMs: 1 }), { messages: userSays('x') }),
  );
  expect(err).toMatchObject({ kind: 'budget', retryable: false });
  expect(gw.requests).toHaveLength(1);
});

// Gemini's free tier also counts requests per day (20 or 50 for some models) and states a retry
// delay of seconds beside that quota too: waited out, asked again and refused again, the person
// was told the model was busy and to try again in about 25 seconds, though nothing comes back
// before the next day.
const PER_DAY = 'GenerateRequestsPerDayPerProjectPerModel-FreeTier';
const perDay: Array<[string, ScriptStep]> = [
  ["Gemini's OpenAI-compatible endpoint", refusal(429, [geminiQuota('25s', QUOTA_WORDS, PER_DAY)])],
  [
    'a proxy passing the whole error body on as the text of its own message',
    refusal(429, {
      error: {
        message: JSON.stringify(geminiQuota('25s', QUOTA_WORDS, PER_DAY)),
        code: 429,
        status: 'Too Many Requests',
      },
    }),
  ],
  [
    'the same quota reported inside a stream',
    {
      kind: 'bytes',
      headers: { 'Content-Type': 'text/event-stream' },
      chunks: [`data: ${JSON.stringify(geminiQuota('25s', QUOTA_WORDS, PER_DAY))}\n\n`],
    },
  ],
];

describe('a quota counted per day is an allowance used up, never asked again', () => {
  for (const [what, step] of perDay) {
    it(what, async () => {
      gw.script(step, { kind: 'reply', text: 'never' });
      const err = await gatewayFailure(
        callGateway(configFor(gw.url, { maxRetries: 2, retryBaseDelayMs: 1 }), {
          messages: userSays('water'),
          stream: true,
        }),
      );
      expect(err).toMatchObject({ kind: 'budget', retryable: false });
      expect(failureCopy(err).error).toMatch(/allowance for this model is used up/);
      expect(gw.requests).toHaveLength(1);
    });
  }
});
