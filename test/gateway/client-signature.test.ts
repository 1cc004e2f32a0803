// An edge in front of a relay (Cloudflare's browser integrity check, bot rules) refuses requests
// that carry no User-Agent, or one it takes for a script: 403 with the bare body "error code:
// 1010" ("the owner of this website has banned your access based on your browser's signature").
// Node sends no User-Agent of its own, so every request to such a relay was refused, and the 403
// was told as a refused API key, sending the person to check a key that was fine.
import { expect, it } from 'vitest';
import { gatewayFailure as failureCopy } from '../../src/chat/agent/copy.js';
import { callGateway } from '../../src/chat/gateway/client.js';
import type { RecordedRequest, ScriptStep } from '../helpers/scripted-gateway.js';
import { configFor, gatewayFailure, userSays } from './support.js';
import { scriptedGatewayPerTest } from './wire.js';

const gw = scriptedGatewayPerTest();

const banned = (body: string, type = 'text/plain; charset=UTF-8'): ScriptStep => ({
  kind: 'error',
  status: 403,
  headers: { 'Content-Type': type },
  body,
});

/** An edge that lets through only requests that say which client sends them. */
const browserCheck = (request: RecordedRequest): ScriptStep =>
  request.headers['user-agent'] ? { kind: 'reply', text: 'Through.' } : banned('error code: 1010');

for (const stream of [true, false]) {
  it(`the request names its client, so an edge that bans unnamed clients lets it through (stream ${stream})`, async () => {
    gw.script({ kind: 'decide', choose: browserCheck });
    const result = await callGateway(configFor(gw.url), { messages: userSays('hi'), stream });
    expect(result.text).toBe('Through.');
    expect(gw.requests[0].headers['user-agent']).toMatch(/^Klebb\/\d/);
  });
}

for (const [what, step] of [
  ['"error code: 1010"', banned('error code: 1010')],
  ['"error code: 1020" (a firewall rule)', banned('error code: 1020')],
  [
    "Cloudflare's 1010 page",
    banned(
      "<!DOCTYPE html><html><head><title>Access denied | relay.example used Cloudflare to restrict access</title></head><body><h1>Error 1010</h1><p>The owner of this website (relay.example) has banned your access based on your browser's signature.</p></body></html>",
      'text/html; charset=UTF-8',
    ),
  ],
] as const) {
  it(`an edge that still refuses the client (${what}) is told as a refusal of this server's network, not of the key`, async () => {
    gw.script(step);
    const err = await gatewayFailure(
      callGateway(configFor(gw.url), { messages: userSays('hi'), stream: true }),
    );
    expect(err.reason).toBe('location_refused');
    expect(failureCopy(err).error).toMatch(/refuses requests from this server's location or network/);
    expect(gw.requests).toHaveLength(1);
  });
}
