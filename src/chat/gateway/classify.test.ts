import { describe, expect, it } from 'vitest';
import { GATEWAY_MAX_ERROR_DETAIL_CHARS } from '../../limits.js';
import {
  classifyErrorPayload,
  classifyHttpError,
  classifyNetworkError,
  hasBudgetMarker,
} from './classify.js';
import { decodeErrorPayload, summarizeHtml } from './error-body.js';
import { parseResetValue, rateLimitResetMs } from './rate-limit-reset.js';
import { parseRetryAfterHeader, parseTryAgainIn, requestExceedsLimit, retryAfterMs } from './retry-after.js';

describe('retry-after', () => {
  const now = Date.parse('2026-01-01T00:00:00Z');
  it('reads delta-seconds, fractional seconds and HTTP-dates', () => {
    expect(parseRetryAfterHeader('6', now)).toBe(6000);
    expect(parseRetryAfterHeader('0.5', now)).toBe(500);
    expect(parseRetryAfterHeader('Thu, 01 Jan 2026 00:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfterHeader('Wed, 31 Dec 2025 23:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfterHeader('soon', now)).toBeUndefined();
  });
  it('reads "try again in" phrases', () => {
    expect(parseTryAgainIn('Please try again in 5.289s. Visit')).toBe(5289);
    expect(parseTryAgainIn('try again in 1m30.5s')).toBe(90_500);
    expect(parseTryAgainIn('try again in 750ms')).toBe(750);
    expect(parseTryAgainIn('no hint')).toBeUndefined();
  });
  it('reads a wait said in other words and units spelt out', () => {
    expect(parseTryAgainIn('try again in 2h3m')).toBe(7_380_000);
    expect(parseTryAgainIn('Please retry in 7.397248589s.')).toBe(7397);
    expect(parseTryAgainIn('Please retry after 86400 seconds.')).toBe(86_400_000);
    expect(parseTryAgainIn('Try again in 43 seconds.')).toBe(43_000);
    expect(parseTryAgainIn('please wait 2 minutes and 30 seconds')).toBe(150_000);
    expect(parseTryAgainIn('retry after 1.5s')).toBe(1500);
    expect(parseTryAgainIn('Please retry after some time.')).toBeUndefined();
    expect(parseTryAgainIn('retry in 3 requests')).toBeUndefined();
  });
  it('takes the largest of the three sources', () => {
    expect(retryAfterMs({ 'retry-after': '6' }, 'try again in 5.289s', now)).toBe(6000);
    expect(retryAfterMs({ 'retry-after-ms': '7200' }, 'try again in 5.289s', now)).toBe(7200);
    expect(retryAfterMs({}, '', now)).toBeUndefined();
  });
  it('reads rate-limit reset values in every format providers write them', () => {
    expect(parseResetValue('2m59.56s', now)).toBe(179_560);
    expect(parseResetValue('20ms', now)).toBe(20);
    expect(parseResetValue('12', now), 'seconds to wait').toBe(12_000);
    expect(parseResetValue(String(now / 1000 + 60), now), 'epoch seconds').toBe(60_000);
    expect(parseResetValue(String(now + 5000), now), 'epoch ms').toBe(5000);
    expect(parseResetValue('2026-01-01T00:01:00Z', now), 'RFC 3339').toBe(60_000);
    expect(parseResetValue('1s, 1s', now), 'repeated through a proxy').toBe(1000);
    expect(parseResetValue(String(now - 5000), now), 'already past').toBeUndefined();
    expect(parseResetValue('later', now)).toBeUndefined();
  });
  it('pairs each reset with its remaining count', () => {
    const h = {
      'x-ratelimit-remaining-tokens': '0',
      'x-ratelimit-reset-tokens': '7.66s',
      'x-ratelimit-reset-requests': '1s',
    };
    expect(rateLimitResetMs(h, now), 'the spent window').toBe(7660);
    expect(
      rateLimitResetMs({ 'x-ratelimit-reset-tokens': '7.66s', 'x-ratelimit-reset-requests': '1s' }, now),
    ).toBe(1000);
    expect(retryAfterMs(h, '', now)).toBe(7660);
    expect(retryAfterMs({ ...h, 'retry-after': '2' }, '', now), 'an explicit wait wins').toBe(2000);
  });
  it('detects Requested > Limit', () => {
    expect(requestExceedsLimit('Limit 15000, Used 11972, Requested 4351')).toBeUndefined();
    expect(requestExceedsLimit('Limit 6000, Used 0, Requested 9120')).toEqual({
      requested: 9120,
      limit: 6000,
    });
  });
});

describe('error bodies', () => {
  it('decodes {error:{}}, [{error:{}}], error strings, vLLM and FastAPI shapes', () => {
    expect(decodeErrorPayload({ error: { message: 'm', type: 't', code: 'c' } })).toMatchObject({
      message: 'm',
      type: 't',
      code: 'c',
    });
    expect(
      decodeErrorPayload([{ error: { code: 400, message: 'x', status: 'INVALID_ARGUMENT' } }]),
    ).toMatchObject({
      type: 'INVALID_ARGUMENT',
      code: 400,
    });
    expect(decodeErrorPayload({ error: 'bad', error_type: 'validation' })).toEqual({
      message: 'bad',
      detail: 'bad',
      type: 'validation',
      code: undefined,
    });
    expect(
      decodeErrorPayload({ object: 'error', message: 'too long', type: 'BadRequestError', code: 400 }),
    ).toMatchObject({
      message: 'too long',
    });
    expect(decodeErrorPayload({ detail: 'Not Found' })).toEqual({
      message: 'Not Found',
      detail: 'Not Found',
    });
    // a message given as an object or a list still names the field it refuses
    expect(
      decodeErrorPayload({
        object: 'error',
        message: {
          detail: [
            {
              type: 'extra_forbidden',
              loc: ['body', 'messages', 3, 'name'],
              msg: 'Extra inputs are not permitted',
            },
          ],
        },
        type: 'invalid_request_error',
      })?.detail,
    ).toBe('body.messages.3.name: Extra inputs are not permitted');
    expect(
      decodeErrorPayload({
        error: { message: [{ loc: ['body', 'stream_options'], msg: 'Extra inputs are not permitted' }] },
      })?.message,
    ).toBe('body.stream_options: Extra inputs are not permitted');
    expect(decodeErrorPayload({ choices: [] })).toBeUndefined();
  });
  it('cuts a long error detail without splitting a character in half', () => {
    const text = `${'x'.repeat(GATEWAY_MAX_ERROR_DETAIL_CHARS - 1)}👍🏽 and more`;
    const detail = decodeErrorPayload({ error: { message: text } })?.detail ?? '';
    expect(detail.length).toBeLessThan(text.length);
    expect(detail.endsWith('👍🏽') || detail.endsWith('x')).toBe(true);
    expect(/[\ud800-\udbff](?![\udc00-\udfff])/.test(detail)).toBe(false);
  });
  it('summarises HTML by its title without the host prefix', () => {
    expect(summarizeHtml('<html><title>api.openai.com | 502: Bad gateway</title></html>')).toBe(
      '502: Bad gateway',
    );
    expect(summarizeHtml('<html><body><h1>Oops &amp; more</h1></body></html>')).toBe('Oops & more');
  });
});

describe('classifyHttpError', () => {
  it('maps statuses to kinds', () => {
    expect(classifyHttpError(429, {}, '{"error":{"message":"slow down"}}').kind).toBe('rate_limited');
    expect(classifyHttpError(429, {}, '{"error":{"message":"Budget has been exceeded!"}}').kind).toBe(
      'budget',
    );
    expect(classifyHttpError(400, {}, '{"error":{"message":"Budget has been exceeded!"}}').kind).toBe(
      'budget',
    );
    expect(classifyHttpError(408, {}, '').kind).toBe('timeout');
    expect(classifyHttpError(500, {}, '').kind).toBe('unavailable');
    expect(classifyHttpError(401, {}, '{"error":{"message":"bad key"}}')).toMatchObject({
      kind: 'failed',
      reason: 'auth',
    });
    expect(classifyHttpError(413, {}, '')).toMatchObject({ kind: 'failed', reason: 'request_too_large' });
  });
  it('a model that cannot take images is not asked again, whatever the status', () => {
    const ollama =
      '{"error":{"message":"Failed to create new sequence: failed to process inputs: this model is missing data required for image input","type":"api_error","param":null,"code":null}}';
    expect(classifyHttpError(500, {}, ollama).retryable).toBe(false);
    // a plain server error is still asked again
    expect(classifyHttpError(500, {}, '{"error":{"message":"failed to process inputs"}}').retryable).toBe(
      true,
    );
  });
  it('never carries raw HTML or control characters in the message', () => {
    const e = classifyHttpError(
      503,
      { 'content-type': 'text/html' },
      '<html><body>\n<p>down</p></body></html>',
    );
    expect(e.message).not.toMatch(/[<>\n]/);
  });
  it('names the self-healing 400s', () => {
    expect(
      classifyHttpError(
        400,
        {},
        JSON.stringify({ error: { message: "('messages.0.content' : value must be a string)" } }),
      ).reason,
    ).toBe('system_content_must_be_string');
    expect(
      classifyHttpError(400, {}, JSON.stringify({ error: { message: 'cache_control: unknown field' } }))
        .reason,
    ).toBe('cache_control_rejected');
  });
});

describe('classifyErrorPayload', () => {
  it('ignores payloads without an error', () => {
    expect(classifyErrorPayload({ choices: [], error: null })).toBeUndefined();
    // an envelope whose code says success, and a chunk whose message is a chat message
    expect(classifyErrorPayload({ code: 0, message: 'success', data: {} })).toBeUndefined();
    expect(
      classifyErrorPayload({ message: { role: 'assistant', content: 'hi' }, type: 'x' }),
    ).toBeUndefined();
  });
  it('reads the bare shapes of servers that answer errors with 200', () => {
    expect(
      classifyErrorPayload({ object: 'error', message: 'boom', type: 'BadRequestError', code: 400 }),
    ).toMatchObject({
      kind: 'failed',
      retryable: false,
    });
    expect(classifyErrorPayload({ detail: 'Not authenticated' })).toMatchObject({ reason: 'auth' });
    expect(classifyErrorPayload({ message: 'token expired', code: 40001 })).toMatchObject({ kind: 'failed' });
  });
  it('decides retry from code and type', () => {
    expect(classifyErrorPayload({ error: { code: 502, message: 'x' } })?.retryable).toBe(true);
    expect(classifyErrorPayload({ error: { code: 'overloaded_error', message: 'x' } })?.retryable).toBe(true);
    expect(classifyErrorPayload({ error: { code: 400, message: 'prompt is too long' } })?.retryable).toBe(
      false,
    );
    expect(classifyErrorPayload({ error: { message: 'mystery' } })?.retryable).toBe(false);
  });
});

describe('budget markers and network errors', () => {
  it('recognises budget wording only', () => {
    expect(hasBudgetMarker('insufficient_quota')).toBe(true);
    expect(hasBudgetMarker('You exceeded your current quota')).toBe(true);
    expect(hasBudgetMarker('Rate limit reached for requests')).toBe(false);
  });
  it('classifies node network errors', () => {
    expect(
      classifyNetworkError(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })),
    ).toMatchObject({
      kind: 'unavailable',
      reason: 'connection_refused',
      retryable: true,
    });
    expect(
      classifyNetworkError(Object.assign(new Error('self-signed'), { code: 'DEPTH_ZERO_SELF_SIGNED_CERT' })),
    ).toMatchObject({
      reason: 'tls',
      retryable: false,
    });
  });
});
