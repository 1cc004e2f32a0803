// A reverse proxy in front of the model's server gives up waiting for it and answers 504 Gateway
// Time-out (nginx's proxy_read_timeout is 60 s by default; Caddy, Traefik and load balancers have
// their own): a slow model, or a long conversation on a slow machine, meets it on every try. Klebb
// asked again and then said the chat service was unavailable and to try again in a little while,
// though the service was there and only slow; asking again meets the same limit. A 504 that
// persists through the retries is now told as the gateway's time limit, with what helps.
import { expect, it } from 'vitest';
import type { ScriptStep } from '../helpers/scripted-gateway.js';
import { agentTurn } from './agent-turn.js';
import { scriptedGatewayPerTest } from './wire.js';

const gw = scriptedGatewayPerTest();

const NGINX_504: ScriptStep = {
  kind: 'error',
  status: 504,
  headers: { 'content-type': 'text/html', server: 'nginx/1.24.0' },
  body: '<html>\r\n<head><title>504 Gateway Time-out</title></head>\r\n<body>\r\n<center><h1>504 Gateway Time-out</h1></center>\r\n<hr><center>nginx/1.24.0</center>\r\n</body>\r\n</html>\r\n',
};

it("nginx's 504 page on every try: the gateway's time limit, not 'unavailable'", async () => {
  gw.script(NGINX_504, NGINX_504, NGINX_504);
  const { result } = await agentTurn(gw, { stream: true, gateway: { maxRetries: 2, retryBaseDelayMs: 1 } });
  expect(gw.requests).toHaveLength(3);
  expect(result.error).toMatch(
    /did not answer before the gateway in front of it stopped waiting \(HTTP 504\)/,
  );
  expect(result.error).toMatch(/proxy_read_timeout/);
  expect(result.error).not.toMatch(/unavailable right now/);
});

it('a 504 once, then an answer: the answer, as before', async () => {
  gw.script(NGINX_504, { kind: 'reply', text: 'You walked 8 400 steps today.' });
  const { result } = await agentTurn(gw, { stream: true, gateway: { maxRetries: 2, retryBaseDelayMs: 1 } });
  expect(gw.requests).toHaveLength(2);
  expect(result.error).toBeUndefined();
});

it('a 503 on every try is still the service unavailable', async () => {
  const down: ScriptStep = {
    kind: 'error',
    status: 503,
    body: { error: { message: 'Service Unavailable' } },
  };
  gw.script(down, down, down);
  const { result } = await agentTurn(gw, { stream: true, gateway: { maxRetries: 2, retryBaseDelayMs: 1 } });
  expect(result.error).toMatch(/unavailable right now/);
});
