// A transcript holding an assistant turn that says nothing (an API client that kept an empty reply:
// one stopped before its first word, a model's empty answer) was sent on as
// {"role":"assistant","content":""}. Anthropic (also behind its OpenAI-compatible endpoint, Bedrock
// and LiteLLM) refuses the whole request for it, "all messages must have non-empty content except
// for the optional final assistant message", and Gemini with "contents.parts must not be empty", so
// every later message of that conversation failed. Such a turn is now left out; turns with text
// or tool calls go as before.
import { expect, it } from 'vitest';
import type { RecordedRequest, ScriptStep } from '../helpers/scripted-gateway.js';
import { agentTurn } from './agent-turn.js';
import { scriptedGatewayPerTest } from './wire.js';

const gw = scriptedGatewayPerTest();

/** Anthropic's validation: refuses an assistant turn with neither text nor tool calls. */
const strictAboutEmptyTurns: ScriptStep = {
  kind: 'decide',
  choose(request: RecordedRequest): ScriptStep {
    const messages: Array<{ role: string; content: unknown; tool_calls?: unknown[] }> = request.body.messages;
    const i = messages.findIndex(
      (m) =>
        m.role === 'assistant' &&
        !m.tool_calls?.length &&
        (m.content === null || (typeof m.content === 'string' && m.content.trim() === '')),
    );
    if (i >= 0)
      return {
        kind: 'error',
        status: 400,
        body: {
          type: 'error',
          error: {
            type: 'invalid_request_error',
            message: `messages.${i}: all messages must have non-empty content except for the optional final assistant message`,
          },
        },
      };
    return { kind: 'reply', text: 'You drank 1.2 l today.' };
  },
};

for (const blank of ['', '  \n']) {
  it(`an assistant turn of ${JSON.stringify(blank)} is left out, and the answer comes`, async () => {
    gw.script(strictAboutEmptyTurns, strictAboutEmptyTurns);
    const { result } = await agentTurn(gw, {
      stream: true,
      messages: [
        { role: 'user', content: 'How much water did I drink?' },
        { role: 'assistant', content: blank },
        { role: 'user', content: 'Water today?' },
      ],
    });
    expect(result.error).toBeUndefined();
    expect(result.payload?.reply).toBe('You drank 1.2 l today.');
    const sent = gw.requests[0].body.messages.map((m: { role: string }) => m.role);
    expect(sent).toEqual(['system', 'user', 'user']);
  });
}

it('assistant turns with text go as before', async () => {
  gw.script(strictAboutEmptyTurns);
  await agentTurn(gw, {
    stream: true,
    messages: [
      { role: 'user', content: 'Water today?' },
      { role: 'assistant', content: '1.2 l.' },
      { role: 'user', content: 'And yesterday?' },
    ],
  });
  expect(gw.requests[0].body.messages.map((m: { content: unknown }) => m.content)).toEqual([
    'You are Klebb.',
    'Water today?',
    '1.2 l.',
    'And yesterday?',
  ]);
});
