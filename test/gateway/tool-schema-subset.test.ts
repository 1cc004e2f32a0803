// Gemini takes tool parameters in its own subset of JSON Schema, and its API (behind the relays and
// proxies that translate OpenAI requests to it) refuses every request whose tool schemas use a
// keyword outside it: 400 'Invalid JSON payload received. Unknown name "additionalProperties" at
// 'tools[0].function_declarations[3].parameters.properties[1].value': Cannot find field.' (also
// "$schema", "const", "propertyNames"). Klebb's schemas use such keywords, so no turn could run.
// The tools are then sent with only the keywords that subset has, and that is remembered; a
// property that happens to be named like a keyword stays.
import { expect, it } from 'vitest';
import { callGateway } from '../../src/chat/gateway/client.js';
import type { ToolDefinition } from '../../src/chat/gateway/types.js';
import type { RecordedRequest, ScriptStep } from '../helpers/scripted-gateway.js';
import { configFor, userSays } from './support.js';
import { scriptedGatewayPerTest } from './wire.js';

const gw = scriptedGatewayPerTest();

const tools: ToolDefinition[] = [
  {
    type: 'function',
    function: {
      name: 'save_manifest',
      description: 'Saves a card manifest.',
      parameters: {
        type: 'object',
        properties: {
          $schema: { type: 'string', description: 'the manifest schema address' },
          patch: { type: 'object', additionalProperties: true, description: 'a merge patch' },
          days: { type: 'array', items: { type: 'integer', minimum: 0, maximum: 6 }, uniqueItems: true },
          kind: { const: 'bp' },
        },
        required: ['patch'],
        additionalProperties: false,
      },
    },
  },
];

const OUTSIDE = ['additionalProperties', 'uniqueItems', 'const', 'propertyNames', '$schema'];

/** Keyword names used anywhere in a schema (not property names). */
function keywords(schema: unknown, out: Set<string> = new Set()): Set<string> {
  if (Array.isArray(schema)) for (const s of schema) keywords(s, out);
  else if (schema && typeof schema === 'object') {
    for (const [k, v] of Object.entries(schema)) {
      out.add(k);
      if (k === 'properties' && v && typeof v === 'object')
        for (const p of Object.values(v)) keywords(p, out);
      else keywords(v, out);
    }
  }
  return out;
}

const gemini = (q: RecordedRequest): ScriptStep => {
  const used = [...keywords(q.body.tools.map((t: ToolDefinition) => t.function.parameters))].filter((k) =>
    OUTSIDE.includes(k),
  );
  if (used.length === 0) return { kind: 'reply', text: 'Saved.' };
  return {
    kind: 'error',
    status: 400,
    body: [
      {
        error: {
          code: 400,
          message: used
            .map(
              (k) =>
                `Invalid JSON payload received. Unknown name "${k}" at 'tools[0].function_declarations[0].parameters': Cannot find field.`,
            )
            .join('\n'),
          status: 'INVALID_ARGUMENT',
        },
      },
    ],
  };
};

it('sent again with the tool schemas in the subset, property names kept, and remembered', async () => {
  gw.script(
    { kind: 'decide', choose: gemini },
    { kind: 'decide', choose: gemini },
    { kind: 'decide', choose: gemini },
  );
  const cfg = configFor(gw.url);
  expect((await callGateway(cfg, { messages: userSays('save it'), stream: true, tools })).text).toBe(
    'Saved.',
  );
  expect(gw.requests).toHaveLength(2);
  const params = gw.requests[1].body.tools[0].function.parameters;
  expect(params).toEqual({
    type: 'object',
    properties: {
      $schema: { type: 'string', description: 'the manifest schema address' },
      patch: { type: 'object', description: 'a merge patch' },
      days: { type: 'array', items: { type: 'integer', minimum: 0, maximum: 6 } },
      kind: { type: 'string', enum: ['bp'] },
    },
    required: ['patch'],
  });
  expect(gw.requests[1].body.tools[0].function.description).toBe('Saves a card manifest.');
  await callGateway(cfg, { messages: userSays('save it'), stream: true, tools });
  expect(gw.requests).toHaveLength(3);
});

it('an endpoint that takes the schemas keeps getting them whole', async () => {
  gw.script({ kind: 'reply', text: 'Saved.' });
  await callGateway(configFor(gw.url), { messages: userSays('save it'), stream: true, tools });
  expect(gw.requests[0].body.tools[0].function.parameters.additionalProperties).toBe(false);
});

it("Klebb's own tools, once refused, go out in the subset", async () => {
  const { toolDefinitions } = await import('../../src/chat/tools/registry.js');
  const own = toolDefinitions();
  const outside = (q: RecordedRequest) =>
    [...keywords(q.body.tools.map((t: ToolDefinition) => t.function.parameters))].filter(
      (k) => !SUBSET_KEYWORDS.has(k),
    );
  gw.script(
    { kind: 'decide', choose: gemini },
    {
      kind: 'decide',
      choose: (q) =>
        outside(q).length === 0
          ? { kind: 'reply', text: 'Done.' }
          : { kind: 'error', status: 400, body: { error: { message: `left: ${outside(q)}` } } },
    },
  );
  expect(
    (await callGateway(configFor(gw.url), { messages: userSays('x'), stream: true, tools: own })).text,
  ).toBe('Done.');
  expect(gw.requests[1].body.tools).toHaveLength(own.length);
});

/** Gemini's Schema keywords, for the check above. */
const SUBSET_KEYWORDS = new Set(
  'type format title description nullable enum items properties required minItems maxItems minProperties maxProperties minLength maxLength pattern minimum maximum anyOf default example propertyOrdering'.split(
    ' ',
  ),
);
