// tool-call arguments contain valid JSON followed by trailing prose (thinking models).
import { afterEach, beforeEach, expect, it } from 'vitest';
import { callGateway } from '../../../src/chat/gateway/client.js';
import { configFor, recordHooks, userSays } from '../../gateway/support.js';
import { type ScriptedGateway, startScriptedGateway } from '../../helpers/scripted-gateway.js';

let gw: ScriptedGateway;
beforeEach(async () => {
  gw = await startScriptedGateway();
});
afterEach(() => gw.close());

it('uses the first complete JSON object, drops the prose and warns', async () => {
  gw.script({ kind: 'raw', caseId: 'G21' });
  const rec = recordHooks();
  const result = await callGateway(
    configFor(gw.url),
    { messages: userSays('todo?'), stream: true },
    rec.hooks,
  );
  expect(result.toolCalls).toEqual([
    {
      id: expect.stringMatching(/^[A-Za-z0-9]{9}$/),
      providerId: 'call_PLACEHOLDER21',
      name: 'memory_search',
      arguments: '{"query":"TO-DO","limit":10}',
      parsedArguments: { query: 'TO-DO', limit: 10 },
    },
  ]);
  expect(rec.warnings).toHaveLength(1);
  expect(rec.warnings[0]).toMatch(/memory_search/);
  expect(result.warnings).toEqual(rec.warnings);
});

it('arguments with no complete object are marked unusable, never partly parsed', async () => {
  gw.script({
    kind: 'reply',
    toolCalls: [
      { id: 'c1', name: 'memory_search', arguments: '{"query": "TO-DO", "limit": ' },
      { id: 'c2', name: 'memory_search', arguments: 'I will search now' },
    ],
  });
  const result = await callGateway(configFor(gw.url), { messages: userSays('todo?'), stream: true });
  for (const call of result.toolCalls) {
    expect(call.parsedArguments).toBeUndefined();
    expect(call.argumentsError).toMatch(/^arguments were not valid JSON: /);
  }
  // what goes back to the gateway is still valid JSON; the tool reply carries the error
  expect(result.toolCalls[0].arguments).toBe('{}');
});
