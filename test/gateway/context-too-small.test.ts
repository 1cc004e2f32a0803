// LM Studio refuses a prompt longer than the context it loaded the model with in its own words:
// "The number of tokens to keep from the initial prompt is greater than the context length
// (n_keep: 13055>= n_ctx: 4096)", and in newer versions "Cannot truncate prompt with n_keep
// (15028) >= n_ctx (7424)". Neither was read as a prompt too long for the model, so the person
// was told to try again, which fails the same way every time.
import { expect, it } from 'vitest';
import type { ScriptStep } from '../helpers/scripted-gateway.js';
import { agentTurn } from './agent-turn.js';
import { scriptedGatewayPerTest } from './wire.js';

const gw = scriptedGatewayPerTest();

const lmStudio = (error: string): ScriptStep => ({ kind: 'error', status: 400, body: { error } });

const wordings = [
  'The number of tokens to keep from the initial prompt is greater than the context length (n_keep: 13055>= n_ctx: 4096). Try to load the model with a larger context length, or provide a shorter input.',
  'The number of tokens to keep from the initial prompt is greater than the context length. Try to load the model with a larger context length, or provide a shorter input',
  'Cannot truncate prompt with n_keep (15028) >= n_ctx (7424)',
];

const longConversation = [
  { role: 'user' as const, content: 'Log 250 ml of water.' },
  { role: 'assistant' as const, content: 'Logged 250 ml of water for today.' },
  { role: 'user' as const, content: 'And what did I drink yesterday?' },
];

for (const wording of wordings) {
  it(`"${wording.slice(0, 60)}…" is a conversation too long for the model, not asked again`, async () => {
    gw.script(lmStudio(wording), lmStudio(wording));
    const { result } = await agentTurn(gw, {
      messages: longConversation,
      stream: true,
      gateway: { maxRetries: 2, retryBaseDelayMs: 1 },
    });
    expect(gw.requests).toHaveLength(1);
    expect(result.error).toMatch(/too long for the model/);
    expect(result.error).not.toMatch(/try again\.$/i);
  });
}

// The same refusal of a first short message in a new conversation is not about the conversation:
// the model was loaded with a context smaller than Klebb's own instructions and tools (about 9 000
// tokens; LM Studio and Ollama often load 4096). "Start a new conversation" could never help; the
// person is told to give the model a larger context instead.
for (const wording of wordings) {
  it(`"${wording.slice(0, 40)}…" on a first short message: the model's context is too small`, async () => {
    gw.script(lmStudio(wording));
    const { result } = await agentTurn(gw, { question: 'How much water today?', stream: true });
    expect(result.error).toMatch(/context/);
    expect(result.error).toMatch(/larger context/);
    expect(result.error).not.toMatch(/Start a new conversation/);
  });
}

it('a refusal of a long first message is still about the message (guards what worked)', async () => {
  gw.script(lmStudio(wordings[0]));
  const { result } = await agentTurn(gw, { question: 'Lab report: '.padEnd(20_000, 'x'), stream: true });
  expect(result.error).toMatch(/too long for the model/);
});
