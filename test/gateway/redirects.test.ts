// An endpoint URL that answers with a redirect. node:http follows none; a 307 or 308 keeps the
// method and body (servers answer POSTs to a path without its trailing slash so:
// https://github.com/mostlygeek/llama-swap/pull/322), so it is followed on the same host; a 301,
// 302 or 303 would turn the POST into a GET (https://github.com/startfellows/tonapi-sdk-js/pull/11),
// so it is reported naming the address to configure, never retried.
import { afterEach, beforeEach, expect, it } from 'vitest';
import { callGateway } from '../../src/chat/gateway/client.js';
import { type ScriptedGateway, startScriptedGateway } from '../helpers/scripted-gateway.js';
import { configFor, gatewayFailure, userSays } from './support.js';

let gw: ScriptedGateway;
beforeEach(async () => {
  gw = await startScriptedGateway();
});
afterEach(() => gw.close());

for (const status of [307, 308]) {
  it(`a ${status} on the same host is followed with the same request`, async () => {
    gw.script(
      { kind: 'error', status, headers: { Location: '/v1/chat/completions/' }, body: '' },
      { kind: 'reply', text: 'Here.' },
    );
    const r = await callGateway(configFor(gw.url), { messages: userSays('hi'), stream: true });
    expect(r.text).toBe('Here.');
    expect(gw.requests.map((q) => [q.method, q.path])).toEqual([
      ['POST', '/v1/chat/completions'],
      ['POST', '/v1/chat/completions/'],
    ]);
    expect(gw.requests[1].rawBody).toBe(gw.requests[0].rawBody);
    expect(gw.requests[1].headers.authorization).toBe('Bearer sk-test');
  });
}

it('a 307 to another host is not followed (the API key would go with it): the address is named', async () => {
  gw.script({
    kind: 'error',
    status: 307,
    headers: { Location: 'https://elsewhere.example/v1/chat/completions' },
    body: '',
  });
  const err = await gatewayFailure(callGateway(configFor(gw.url), { messages: userSays('hi') }));
  expect(err).toMatchObject({ kind: 'failed', reason: 'redirect', retryable: false });
  expect(err.message).toMatch(/https:\/\/elsewhere\.example\/v1\/chat\/completions/);
  expect(gw.requests).toHaveLength(1);
});

it('a 301 with an HTML page names where it points, is not retried and never reported as an outage', async () => {
  gw.script(
    {
      kind: 'error',
      status: 301,
      headers: { Location: `${gw.origin}/api/v1/chat/completions`, 'Content-Type': 'text/html' },
      body: '<html><head><title>301 Moved Permanently</title></head></html>',
    },
    { kind: 'reply', text: 'no' },
  );
  const err = await gatewayFailure(
    callGateway(configFor(gw.url, { maxRetries: 2, retryBaseDelayMs: 1 }), { messages: userSays('hi') }),
  );
  expect(err).toMatchObject({ kind: 'failed', reason: 'redirect', retryable: false, upstreamStatus: 301 });
  expect(err.message).toContain(`${gw.origin}/api/v1/chat/completions`);
  expect(err.message).toMatch(/CHAT_ENDPOINT_URL/);
  expect(gw.requests).toHaveLength(1);
});

it('redirects that go round are followed a few times, then reported', async () => {
  for (let i = 0; i < 5; i++)
    gw.script({
      kind: 'error',
      status: 308,
      headers: { Location: `/v1/chat/completions?hop=${i}` },
      body: '',
    });
  const err = await gatewayFailure(callGateway(configFor(gw.url), { messages: userSays('hi') }));
  expect(err.reason).toBe('redirect');
  expect(gw.requests).toHaveLength(4);
});
