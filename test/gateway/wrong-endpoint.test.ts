// A chat endpoint URL with the wrong path: some servers say so with 404, others with 405 (the
// address exists but takes no POST), and LM Studio with 200 and an error body. Whichever, the
// person is told to check the endpoint URL, once, instead of "please try again".
import { afterEach, beforeEach, expect, it } from 'vitest';
import { gatewayFailure as failureCopy } from '../../src/chat/agent/copy.js';
import { callGateway } from '../../src/chat/gateway/client.js';
import { type ScriptedGateway, type ScriptStep, startScriptedGateway } from '../helpers/scripted-gateway.js';
import { configFor, gatewayFailure, userSays } from './support.js';

let gw: ScriptedGateway;
beforeEach(async () => {
  gw = await startScriptedGateway();
});
afterEach(() => gw.close());

const answers: Array<[string, ScriptStep]> = [
  [
    'LM Studio answering an unknown path with 200 and an error',
    {
      kind: 'bytes',
      headers: { 'Content-Type': 'application/json; charset=utf-8' },
      chunks: ['{"error":"Unexpected endpoint or method. (POST /chat/completions)"}'],
    },
  ],
  [
    'a FastAPI server answering 405 for a path that takes no POST',
    { kind: 'error', status: 405, body: { detail: 'Method Not Allowed' } },
  ],
];

for (const [who, step] of answers) {
  for (const stream of [true, false]) {
    it(`${who} (${stream ? 'streamed' : 'buffered'} request): check CHAT_ENDPOINT_URL, asked once`, async () => {
      gw.script(step);
      const err = await gatewayFailure(
        callGateway(configFor(gw.url, { maxRetries: 2, retryBaseDelayMs: 1 }), {
          messages: userSays('x'),
          stream,
        }),
      );
      expect(err).toMatchObject({ kind: 'failed', reason: 'not_found', retryable: false });
      const copy = failureCopy(err).error;
      expect(copy).toContain('CHAT_ENDPOINT_URL');
      expect(copy).not.toContain('Please try again');
      expect(gw.requests).toHaveLength(1);
    });
  }
}
