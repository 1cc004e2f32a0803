// Servers that write `data: ` themselves and hand the line to an SSE framework that adds its own
// (axum's Sse, sse-starlette's EventSourceResponse) send every event as `data: data: {...}`, often
// with an extra blank line. Read to the letter, no event held JSON: every stream looked cut off and
// was asked again, failing the same way each time. The repeated field name is taken off; the
// events, the end marker and their text are read as usual, however the bytes are cut.
import { expect, it } from 'vitest';
import { callGateway } from '../../src/chat/gateway/client.js';
import { configFor, recordHooks, userSays } from './support.js';
import { scriptedGatewayPerTest } from './wire.js';

const gw = scriptedGatewayPerTest();

const chunk = (choice: Record<string, unknown>) =>
  JSON.stringify({ object: 'chat.completion.chunk', choices: [{ index: 0, ...choice }] });
const body = (sep: string) =>
  [
    `data:${sep}data:${sep}${chunk({ delta: { content: 'Six ' } })}\n\n\n\n`,
    `data:${sep}data:${sep}${chunk({ delta: { content: 'glasses.' } })}\n\n\n\n`,
    `data:${sep}data:${sep}${chunk({ delta: {}, finish_reason: 'stop' })}\n\n\n\n`,
    `data:${sep}data:${sep}[DONE]\n\n\n\n`,
  ].join('');

for (const [what, sep] of [
  ['with spaces', ' '],
  ['without spaces', ''],
] as const) {
  for (const cut of [1, 7, 40]) {
    it(`data: data: ${what}, cut every ${cut} bytes: the answer, shown as it arrives`, async () => {
      const bytes = Buffer.from(body(sep));
      const chunks: Buffer[] = [];
      for (let i = 0; i < bytes.length; i += cut) chunks.push(bytes.subarray(i, i + cut));
      gw.script({ kind: 'bytes', chunks, end: 'hold' });
      const r = recordHooks();
      const result = await callGateway(
        configFor(gw.url),
        { messages: userSays('water?'), stream: true },
        r.hooks,
      );
      expect(result.text).toBe('Six glasses.');
      expect(r.tokens.join('')).toBe('Six glasses.');
      expect(result.finishReason).toBe('stop');
    });
  }
}
