// Cloudflare answers 524 "A timeout occurred" when the model's server behind it took the request
// but sent nothing back within the time Cloudflare waits (100 s; 120 s on newer plans): relays
// behind Cloudflare, tunnels to a home Ollama and reasoning models meet it. Klebb read it as any
// 5xx: asked again twice (each try waiting the same 100 s and cut the same way) and then said the
// chat service was unavailable and to try again later, though it was only slow. It is now told at
// once as the proxy's time limit, with what helps, and not asked again.
import { expect, it } from 'vitest';
import type { ScriptStep } from '../helpers/scripted-gateway.js';
import { agentTurn } from './agent-turn.js';
import { scriptedGatewayPerTest } from './wire.js';

const gw = scriptedGatewayPerTest();

const CLOUDFLARE_PAGE = `<!DOCTYPE html>
<html lang="en-US">
<head>
<title>chat.example.com | 524: A timeout occurred</title>
<meta charset="UTF-8" />
</head>
<body>
<div id="cf-wrapper">
<h1><span class="inline-block">A timeout occurred</span> <span class="code-label">Error code 524</span></h1>
<div id="cf-cloudflare-status"><span>Cloudflare</span> <span class="text-green-success">Working</span></div>
<div id="cf-host-status" class="cf-error-source"><span>chat.example.com</span> <span class="text-green-success">Working</span></div>
<p>The origin web server timed out responding to this request.</p>
</div>
</body>
</html>
`;

const timeouts: Array<{ name: string; step: ScriptStep }> = [
  {
    name: "Cloudflare's HTML page",
    step: {
      kind: 'error',
      status: 524,
      headers: { 'content-type': 'text/html; charset=UTF-8', server: 'cloudflare' },
      body: CLOUDFLARE_PAGE,
    },
  },
  {
    name: "Cloudflare's problem details for API clients",
    step: {
      kind: 'error',
      status: 524,
      headers: { 'content-type': 'application/problem+json', server: 'cloudflare' },
      body: {
        type: 'https://developers.cloudflare.com/support/troubleshooting/http-status-codes/cloudflare-5xx-errors/error-524/',
        title: 'Error 524: A timeout occurred',
        status: 524,
        detail:
          'The origin web server did not return a complete response within the 120-second Proxy Read Timeout window.',
      },
    },
  },
];

for (const { name, step } of timeouts) {
  for (const stream of [true, false]) {
    it(`${name} (${stream ? 'streamed' : 'whole'}): the proxy's time limit, said at once`, async () => {
      gw.script(step, step, step);
      const { result } = await agentTurn(gw, { stream, gateway: { maxRetries: 2, retryBaseDelayMs: 1 } });
      expect(gw.requests).toHaveLength(1);
      expect(result.error).toMatch(/took too long to start answering/);
      expect(result.error).toMatch(/HTTP 524/);
      expect(result.error).not.toMatch(/unavailable/);
    });
  }
}

it('a Cloudflare 502 page (the server itself failing) is still asked again', async () => {
  const badGateway: ScriptStep = {
    kind: 'error',
    status: 502,
    headers: { 'content-type': 'text/html; charset=UTF-8', server: 'cloudflare' },
    body: CLOUDFLARE_PAGE.replaceAll('524: A timeout occurred', '502: Bad gateway'),
  };
  gw.script(badGateway, { kind: 'reply', text: 'Your water today: 1.5 l.' });
  const { result } = await agentTurn(gw, { stream: true, gateway: { maxRetries: 2, retryBaseDelayMs: 1 } });
  expect(gw.requests).toHaveLength(2);
  expect(result.error).toBeUndefined();
});
