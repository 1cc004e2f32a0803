// A Google key made in the Cloud console whose project has not switched on the Generative
// Language API is refused with 403 PERMISSION_DENIED "Generative Language API has not been used in
// project N before or it is disabled. Enable it by visiting https://console.developers.google.com/…
// then retry." Klebb told the person the API key was refused and to check CHAT_API_KEY, though the
// key is right, and the page to enable the API was cut off in the middle of its address. It is now
// told as an API to enable for the key's project, with the whole address, and not asked again.
import { expect, it } from 'vitest';
import type { ScriptStep } from '../helpers/scripted-gateway.js';
import { agentTurn } from './agent-turn.js';
import { scriptedGatewayPerTest } from './wire.js';

const gw = scriptedGatewayPerTest();

const ENABLE_AT =
  'https://console.developers.google.com/apis/api/generativelanguage.googleapis.com/overview?project=734201958812';

const SERVICE_DISABLED = {
  code: 403,
  message: `Generative Language API has not been used in project 734201958812 before or it is disabled. Enable it by visiting ${ENABLE_AT} then retry. If you enabled this API recently, wait a few minutes for the action to propagate to our systems and retry.`,
  status: 'PERMISSION_DENIED',
  details: [
    {
      '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
      reason: 'SERVICE_DISABLED',
      domain: 'googleapis.com',
      metadata: { service: 'generativelanguage.googleapis.com', consumer: 'projects/734201958812' },
    },
  ],
};

const shapes: Array<{ name: string; step: ScriptStep }> = [
  {
    name: "Gemini's OpenAI-compatible endpoint (a list around the error)",
    step: { kind: 'error', status: 403, body: [{ error: SERVICE_DISABLED }] },
  },
  {
    name: 'a relay passing the error on as an object',
    step: { kind: 'error', status: 403, body: { error: SERVICE_DISABLED } },
  },
];

for (const { name, step } of shapes) {
  it(`${name}: an API to enable for the key's project, with the whole address`, async () => {
    gw.script(step, step, step);
    const { result } = await agentTurn(gw, { stream: true, gateway: { maxRetries: 2, retryBaseDelayMs: 1 } });
    expect(gw.requests).toHaveLength(1);
    expect(result.error).toMatch(/API is not enabled for the project this API key belongs to/);
    expect(result.error).toContain(`(at ${ENABLE_AT})`);
    expect(result.error).not.toMatch(/refused the API key/);
  });
}

it("Google's refusal of a wrong key is still a refused key", async () => {
  gw.script({
    kind: 'error',
    status: 400,
    body: [
      {
        error: {
          code: 400,
          message: 'API key not valid. Please pass a valid API key.',
          status: 'INVALID_ARGUMENT',
        },
      },
    ],
  });
  const { result } = await agentTurn(gw, { stream: true });
  expect(result.error).toMatch(/refused the API key/);
});
