// MiniMax (and relays passing its replies on, such as AIHubMix) report a failure with status 200
// and `choices: null`, the reason in `base_resp: {status_code, status_msg}` (a reply that worked
// carries `status_code: 0`). Read as a reply without choices, every such failure was "a reply that
// could not be read": a rate limit was not waited out, a refused key not named, a spent balance
// not told as one. Each is now the failure its code and message say, streamed or not.
import { expect, it } from 'vitest';
import { gatewayFailure as failureCopy } from '../../src/chat/agent/copy.js';
import { callGateway } from '../../src/chat/gateway/client.js';
import type { ScriptStep } from '../helpers/scripted-gateway.js';
import { configFor, gatewayFailure, userSays } from './support.js';
import { scriptedGatewayPerTest } from './wire.js';

const gw = scriptedGatewayPerTest();

const failed = (status_code: number, status_msg: string) => ({
  id: '',
  choices: null,
  created: 0,
  model: 'MiniMax-M2',
  object: 'chat.completion',
  usage: { total_tokens: 0, total_characters: 0 },
  base_resp: { status_code, status_msg },
});
const asJson = (body: object): ScriptStep => ({
  kind: 'bytes',
  headers: { 'Content-Type': 'application/json' },
  chunks: [JSON.stringify(body)],
});
const asEvent = (body: object): ScriptStep => ({
  kind: 'bytes',
  chunks: [`data: ${JSON.stringify(body)}\n\n`],
});

for (const [how, serve, stream] of [
  ['a JSON reply', asJson, false],
  ['a stream event', asEvent, true],
] as const) {
  it(`a rate limit as ${how}: waited out and asked again`, async () => {
    gw.script(serve(failed(1002, 'rate limit exceeded(RPM)')), { kind: 'reply', text: 'Six glasses.' });
    const cfg = configFor(gw.url, { maxRetries: 1, retryBaseDelayMs: 1 });
    expect((await callGateway(cfg, { messages: userSays('x'), stream })).text).toBe('Six glasses.');
    expect(gw.requests).toHaveLength(2);
  });

  it(`a refused key as ${how}: told to check the key, not asked again`, async () => {
    gw.script(
      serve(
        failed(
          1004,
          "login fail: Please carry the API secret key in the 'Authorization' field of the request header",
        ),
      ),
    );
    const err = await gatewayFailure(
      callGateway(configFor(gw.url, { maxRetries: 2 }), { messages: userSays('x'), stream }),
    );
    expect(err.reason).toBe('auth');
    expect(failureCopy(err).error).toMatch(/CHAT_API_KEY/);
    expect(gw.requests).toHaveLength(1);
  });

  it(`a spent balance as ${how}: told as a spent allowance`, async () => {
    gw.script(serve(failed(1008, 'insufficient balance')));
    const err = await gatewayFailure(callGateway(configFor(gw.url), { messages: userSays('x'), stream }));
    expect(err.kind).toBe('budget');
  });
}

it('a reply that worked carries status 0 and is read as usual', async () => {
  gw.script(
    asJson({
      id: 'x',
      object: 'chat.completion',
      choices: [{ index: 0, message: { role: 'assistant', content: 'Six glasses.' }, finish_reason: 'stop' }],
      base_resp: { status_code: 0, status_msg: '' },
    }),
  );
  expect((await callGateway(configFor(gw.url), { messages: userSays('x') })).text).toBe('Six glasses.');
});
