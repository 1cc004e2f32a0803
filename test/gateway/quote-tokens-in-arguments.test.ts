// A model's string-quote token (`<|"|>`, also `<|">`) left in a call's JSON arguments by a server or
// relay that did not detokenize the call cleanly: in place of the quotes,
// `{"tags": [<|">sleep<|">]}` (https://github.com/tinyhumansai/tinyagents/pull/68), or inside them
// around the value, `{"id": "<|"|>weight<|"|>"}`
// (https://github.com/google-ai-edge/LiteRT-LM/issues/2172). The tool runs once with the values the
// tokens delimit, and what goes back in the history is plain JSON.
import { expect, it } from 'vitest';
import type { ScriptStep } from '../helpers/scripted-gateway.js';
import { agentTurn } from './agent-turn.js';
import { scriptedGatewayPerTest } from './wire.js';

const gw = scriptedGatewayPerTest();

const call = (args: string): ScriptStep => ({
  kind: 'reply',
  toolCalls: [{ id: 'call_1', name: 'read_rows', arguments: args }],
});
const cases = [
  {
    shape: 'in place of the quotes',
    args: '{"id": <|"|>weight<|"|>, "tags": [<|">sleep<|">, <|">am<|">], "limit": 3}',
  },
  {
    shape: 'inside the quotes',
    args: '{"id": "<|\\"|>weight<|\\"|>", "tags": ["<|\\"|>sleep<|\\"|>", "am"], "limit": 3}',
  },
];
const meant = { id: 'weight', tags: ['sleep', 'am'], limit: 3 };

for (const { shape, args } of cases) {
  for (const stream of [false, true]) {
    it(`quote tokens ${shape}: the tool gets the values they delimit (${stream ? 'streamed' : 'whole'})`, async () => {
      gw.script(call(args), { kind: 'reply', text: 'Done.' });
      const { result, dispatched } = await agentTurn(gw, { stream, tools: ['read_rows'] });
      expect(dispatched).toEqual([{ name: 'read_rows', args: meant }]);
      expect(result.payload?.reply).toBe('Done.');
      const history = gw.requests[1].body.messages as Array<{
        tool_calls?: Array<{ function: { arguments: string } }>;
      }>;
      const sent = history.find((m) => m.tool_calls)?.tool_calls?.[0].function.arguments ?? '';
      expect(JSON.parse(sent)).toEqual(meant);
    });
  }
}
