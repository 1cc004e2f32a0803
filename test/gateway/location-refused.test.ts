// A provider that refuses where the request comes from, not the key: OpenAI's 403
// `unsupported_country_region_territory` ("Country, region, or territory not supported"), Gemini's
// 400 FAILED_PRECONDITION "User location is not supported for the API use.", a relay behind
// Cloudflare answering the server with its block or challenge page. Told as a refused key, the
// person checked CHAT_API_KEY, which was fine; told as "please try again", they retried in vain.
// Each is now said to be a refusal of this server's location or network, not asked again.
import { expect, it } from 'vitest';
import { gatewayFailure as failureCopy } from '../../src/chat/agent/copy.js';
import { callGateway } from '../../src/chat/gateway/client.js';
import type { ScriptStep } from '../helpers/scripted-gateway.js';
import { configFor, gatewayFailure, userSays } from './support.js';
import { scriptedGatewayPerTest } from './wire.js';

const gw = scriptedGatewayPerTest();

const cases: Array<[string, ScriptStep]> = [
  [
    'OpenAI, a country it does not serve',
    {
      kind: 'error',
      status: 403,
      body: {
        error: {
          code: 'unsupported_country_region_territory',
          message: 'Country, region, or territory not supported',
          param: null,
          type: 'request_forbidden',
        },
      },
    },
  ],
  [
    'Gemini, a location it does not serve',
    {
      kind: 'error',
      status: 400,
      body: [
        {
          error: {
            code: 400,
            message: 'User location is not supported for the API use.',
            status: 'FAILED_PRECONDITION',
          },
        },
      ],
    },
  ],
  [
    "a relay behind Cloudflare's block page",
    {
      kind: 'error',
      status: 403,
      headers: { 'Content-Type': 'text/html; charset=UTF-8' },
      body: '<!DOCTYPE html><html><head><title>Attention Required! | Cloudflare</title></head><body><h1>Sorry, you have been blocked</h1></body></html>',
    },
  ],
];

for (const [who, step] of cases) {
  it(`${who}: said as a refusal of this server's location or network, asked once`, async () => {
    gw.script(step, { kind: 'reply', text: 'never' });
    const cfg = configFor(gw.url, { maxRetries: 2, retryBaseDelayMs: 1 });
    const err = await gatewayFailure(callGateway(cfg, { messages: userSays('x'), stream: true }));
    expect(err.reason).toBe('location_refused');
    const copy = failureCopy(err).error;
    expect(copy).toMatch(/location or network/);
    expect(copy).not.toMatch(/CHAT_API_KEY|try again/i);
    expect(gw.requests).toHaveLength(1);
  });
}

it('a plain 403 refusing the key is still a refused key', async () => {
  gw.script({
    kind: 'error',
    status: 403,
    body: { error: { message: 'Invalid API key', type: 'forbidden' } },
  });
  const err = await gatewayFailure(callGateway(configFor(gw.url), { messages: userSays('x') }));
  expect(err.reason).toBe('auth');
});
