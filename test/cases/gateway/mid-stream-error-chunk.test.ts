// a provider error chunk inside an HTTP 200 SSE stream (OpenRouter).
import { afterEach, beforeEach, expect, it } from 'vitest';
import { callGateway } from '../../../src/chat/gateway/client.js';
import { configFor, gatewayFailure, recordHooks, userSays } from '../../gateway/support.js';
import { type ScriptedGateway, startScriptedGateway } from '../../helpers/scripted-gateway.js';

let gw: ScriptedGateway;
beforeEach(async () => {
  gw = await startScriptedGateway();
});
afterEach(() => gw.close());

for (const variant of ['without [DONE] (the fixture)', 'followed by [DONE]']) {
  it(`a top-level error fails the turn, keeps the streamed text, drops the half call (${variant})`, async () => {
    gw.script({
      kind: 'raw',
      caseId: 'G07',
      append: variant.startsWith('followed') ? 'data: [DONE]\n\n' : '',
    });
    const rec = recordHooks();
    // Retries are allowed, but text already went to the browser: no retry.
    const err = await gatewayFailure(
      callGateway(
        configFor(gw.url, { maxRetries: 2, retryBaseDelayMs: 1 }),
        { messages: userSays('build'), stream: true },
        rec.hooks,
      ),
    );
    expect(err.kind).toBe('failed');
    expect(err.reason).toBe('provider_error');
    expect(err.retryable).toBe(true); // 502 / provider_unavailable is transient
    expect(err.providerCode).toBe(502);
    expect(err.providerType).toBe('provider_unavailable');
    expect(err.partialText).toBe("I'll run the build.");
    expect(err.message).toMatch(/Provider returned error/);
    expect(rec.tokens).toEqual(["I'll run the build."]);
    expect(gw.requests).toHaveLength(1);
  });
}

it('an error chunk before any text is retried with backoff; a 400-class one is not', async () => {
  const errorChunk = (code: number, message: string, type?: string) =>
    `data: ${JSON.stringify({ object: 'chat.completion.chunk', error: { code, message, metadata: type ? { error_type: type } : undefined }, choices: [] })}\n\n`;
  gw.script(
    { kind: 'bytes', chunks: [errorChunk(502, 'Provider returned error', 'provider_unavailable')] },
    { kind: 'reply', text: 'Second time lucky.' },
    { kind: 'bytes', chunks: [errorChunk(400, 'prompt is too long')] },
  );
  const rec = recordHooks();
  const cfg = configFor(gw.url, { maxRetries: 2, retryBaseDelayMs: 1 });
  const ok = await callGateway(cfg, { messages: userSays('x'), stream: true }, rec.hooks);
  expect(ok.text).toBe('Second time lucky.');
  expect(rec.retries).toHaveLength(1);

  const tooLong = await gatewayFailure(callGateway(cfg, { messages: userSays('x'), stream: true }));
  expect(tooLong).toMatchObject({ kind: 'failed', retryable: false, providerCode: 400 });
  expect(gw.requests).toHaveLength(3);
});
