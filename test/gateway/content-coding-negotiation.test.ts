// A request without Accept-Encoding accepts every content coding (RFC 9110, 12.5.3), and edges
// in front of relays (Cloudflare, Caddy's encode, CDNs in front of one-api/new-api) then pick
// zstd, which Node 20 cannot decompress: every reply of such a relay was unreadable, "The model
// sent back a reply that could not be read", turn after turn. Klebb asks for the reply as it is
// (`Accept-Encoding: identity`); a proxy that compresses regardless is still read (see
// compressed-replies).
import { expect, it } from 'vitest';
import { callGateway } from '../../src/chat/gateway/client.js';
import type { RecordedRequest, ScriptStep } from '../helpers/scripted-gateway.js';
import { configFor, userSays } from './support.js';
import { choiceEvent, DONE, scriptedGatewayPerTest } from './wire.js';

const gw = scriptedGatewayPerTest();

/** zstd's frame magic and a few bytes: what an edge that chose zstd sends. */
const ZSTD_BYTES = Uint8Array.from([0x28, 0xb5, 0x2f, 0xfd, 0x24, 0x11, 0x89, 0x00, 0x00]);

/** An edge that compresses with zstd unless the request rules it out, as RFC 9110 lets it. */
function negotiatingEdge(stream: boolean) {
  return (request: RecordedRequest): ScriptStep => {
    const accepted = request.headers['accept-encoding'];
    const zstdAllowed = accepted === undefined || /zstd|\*/i.test(String(accepted));
    if (zstdAllowed)
      return {
        kind: 'bytes',
        headers: { 'Content-Encoding': 'zstd', 'Content-Type': 'application/json' },
        chunks: [ZSTD_BYTES],
      };
    if (stream)
      return {
        kind: 'bytes',
        headers: { 'Content-Type': 'text/event-stream' },
        chunks: [
          choiceEvent({ delta: { content: 'Plain.' } }),
          choiceEvent({ delta: {}, finish_reason: 'stop' }),
          DONE,
        ],
      };
    return {
      kind: 'bytes',
      headers: { 'Content-Type': 'application/json' },
      chunks: [
        JSON.stringify({
          choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: 'Plain.' } }],
        }),
      ],
    };
  };
}

for (const stream of [false, true]) {
  it(`the request asks for the reply uncompressed, so an edge never picks a coding Klebb cannot read (stream ${stream})`, async () => {
    gw.script({ kind: 'decide', choose: negotiatingEdge(stream) });
    const result = await callGateway(configFor(gw.url), { messages: userSays('hi'), stream });
    expect(result.text).toBe('Plain.');
    expect(gw.requests[0].headers['accept-encoding']).toBe('identity');
  });
}
