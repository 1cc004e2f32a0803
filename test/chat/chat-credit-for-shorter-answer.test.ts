// OpenRouter reserves credit for the longest answer a request allows. Klebb sets no output cap,
// so a request allows the model's whole output, and an account with credit left is refused:
// 402 "This request requires more credits, or fewer max_tokens. You requested up to 65536
// tokens, but can only afford 12507." The person was told the allowance was used up and to wait
// for it to reset, which never helps. The request is now asked again once, its output capped
// within what the account can afford, and answered.
import { afterEach, expect, it } from 'vitest';
import { chatServers } from '../helpers/chat-server.js';
import type { ScriptStep } from '../helpers/scripted-gateway.js';

const chat = chatServers({ CHAT_ITER_TIMEOUT_MS: '5000', CHAT_TURN_DEADLINE_MS: '8000' });
afterEach(() => chat.closeAll());

const ask = { messages: [{ role: 'user', content: 'How much water today?' }] };

const cannotAfford = (afford: string): ScriptStep => ({
  kind: 'error',
  status: 402,
  body: {
    error: {
      message: `This request requires more credits, or fewer max_tokens. You requested up to 65536 tokens, but can only afford ${afford}. To increase, visit https://openrouter.ai/settings/credits and upgrade to a paid account`,
      code: 402,
      metadata: { provider_name: null },
    },
  },
});

it('a 402 naming what the credit affords: asked again with the output capped within it, answered', async () => {
  const { gw, s } = await chat.boot();
  gw.script(cannotAfford('12507'), { kind: 'reply', text: 'You drank 1.5 l today.' });
  const r = await s.api('/api/chat', { json: ask });
  expect(r.status).toBe(200);
  expect(r.body.reply).toBe('You drank 1.5 l today.');
  expect(gw.requests).toHaveLength(2);
  expect(gw.requests[0].body.max_tokens).toBeUndefined();
  const cap = gw.requests[1].body.max_tokens ?? gw.requests[1].body.max_completion_tokens;
  expect(cap).toBeGreaterThan(1000);
  expect(cap).toBeLessThanOrEqual(12507);
});

it('refused again with the cap: said as a spent allowance, asked no more', async () => {
  const { gw, s } = await chat.boot();
  gw.script(cannotAfford('12507'), cannotAfford('9000'), cannotAfford('5000'));
  const r = await s.api('/api/chat', { json: ask });
  expect(r.status).toBe(429);
  expect(gw.requests).toHaveLength(2);
});

it('credit for almost nothing: told at once (guards what worked)', async () => {
  const { gw, s } = await chat.boot();
  gw.script(cannotAfford('40'));
  const r = await s.api('/api/chat', { json: ask });
  expect(r.status).toBe(429);
  expect(r.body.error).toMatch(/allowance for this model is used up/);
  expect(gw.requests).toHaveLength(1);
});

it('an answer cut off at the cap the credit allowed says so, not "keep going"', async () => {
  const { gw, s } = await chat.boot();
  gw.script(cannotAfford('1000'), {
    kind: 'reply',
    text: 'Over the last week you drank',
    finishReason: 'length',
  });
  const r = await s.api('/api/chat', { json: ask });
  expect(r.status).toBe(200);
  expect(gw.requests).toHaveLength(2);
  expect(r.body.reply).toMatch(/^Over the last week you drank\n\n/);
  expect(r.body.reply).toContain("the chat account's credit pays for only about 900 tokens of answer");
  expect(r.body.reply).not.toMatch(/keep going/i);
});

it('a reasoning model that wrote nothing within the cap the credit allowed: told it is the credit, asked no more', async () => {
  const { gw, s } = await chat.boot();
  gw.script(cannotAfford('1000'), {
    kind: 'reply',
    text: '',
    reasoning: 'The person asks about water. Let me think about which card holds it and',
    finishReason: 'length',
  });
  const r = await s.api('/api/chat', { json: ask });
  expect(r.status).toBe(200);
  expect(gw.requests).toHaveLength(2);
  const said = r.body.reply ?? r.body.error;
  expect(said).toContain("The chat account's credit pays for only about 900 tokens of answer");
  expect(said).toContain('Add credit');
  expect(said).not.toMatch(/raise the model's output limit/);
});
