// Arguments that arrive as the inside of a JSON string without its quotes: every inner quote
// escaped, `{\"date\": \"2026-05-01\"}`, as a layer that encodes the arguments once more and a
// later one that takes off only the outer quotes leave them
// (https://github.com/modelscope/ms-agent/pull/652). They are read as the JSON they spell and the
// tool runs once with them, streamed or not; such text cut off before its end still runs nothing.
import { expect, it } from 'vitest';
import type { ScriptStep } from '../helpers/scripted-gateway.js';
import { agentTurn } from './agent-turn.js';
import { scriptedGatewayPerTest } from './wire.js';

const gw = scriptedGatewayPerTest();

const call = (args: string): ScriptStep => ({
  kind: 'reply',
  toolCalls: [{ id: 'call_1', name: 'read_rows', arguments: args }],
});
const escaped = String.raw`{\"id\": \"weight\", \"from\": \"2026-05-01\", \"note\": \"line one\\nline two\", \"limit\": 3}`;
const meant = { id: 'weight', from: '2026-05-01', note: 'line one\nline two', limit: 3 };

for (const stream of [false, true]) {
  it(`arguments with escaped quotes and no outer quotes run the tool with what they spell (${stream ? 'streamed' : 'whole'})`, async () => {
    gw.script(call(escaped), { kind: 'reply', text: 'Your weight since May.' });
    const { result, dispatched } = await agentTurn(gw, { stream, tools: ['read_rows'] });
    expect(dispatched).toEqual([{ name: 'read_rows', args: meant }]);
    expect(result.error).toBeUndefined();
    expect(result.payload?.reply).toBe('Your weight since May.');
    // what goes back in the history is the arguments as plain JSON
    const history = gw.requests[1].body.messages as Array<{
      tool_calls?: Array<{ function: { arguments: string } }>;
    }>;
    const sent = history.find((m) => m.tool_calls)?.tool_calls?.[0].function.arguments;
    expect(JSON.parse(sent ?? '')).toEqual(meant);
  });
}

it('the same text cut off before its end runs nothing', async () => {
  gw.script(call(String.raw`{\"id\": \"weight\", \"from\": \"2026-05`), { kind: 'reply', text: 'Sorry.' });
  const { dispatched } = await agentTurn(gw, { stream: false, tools: ['read_rows'] });
  expect(dispatched.filter((d) => d.argumentsError === undefined)).toEqual([]);
});
