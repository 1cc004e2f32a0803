// Gemini (its OpenAI-compatible endpoint, and the relays in front of it) refuses a tool schema
// whose object keywords do not fit: 400 "* GenerateContentRequest.tools[0].function_declarations[4]
// .parameters.properties[changes].properties: should be non-empty for OBJECT type" for an object
// open to any keys (update_row's merge patch, a tool without arguments), "…properties: only
// allowed for OBJECT type" for properties or required on a string, and a required name the
// object does not define. Every tool Klebb offers must then be sent in a shape it takes.
import { expect, it } from 'vitest';
import { callGateway } from '../../src/chat/gateway/client.js';
import type { ToolDefinition } from '../../src/chat/gateway/types.js';
import type { RecordedRequest, ScriptStep } from '../helpers/scripted-gateway.js';
import { configFor, userSays } from './support.js';
import { scriptedGatewayPerTest } from './wire.js';

const gw = scriptedGatewayPerTest();

type Node = Record<string, unknown>;
const OBJECT_ONLY = ['properties', 'required', 'minProperties', 'maxProperties', 'propertyOrdering'];

/** The refusals Gemini's schema check gives `schema` at `at`, one line each. */
function problems(schema: unknown, at: string, out: string[] = []): string[] {
  if (!schema || typeof schema !== 'object' || Array.isArray(schema)) return out;
  const s = schema as Node;
  const props = s.properties && typeof s.properties === 'object' ? (s.properties as Node) : undefined;
  if (s.type === 'object' && props && Object.keys(props).length === 0)
    out.push(`${at}.properties: should be non-empty for OBJECT type`);
  if (typeof s.type === 'string' && s.type !== 'object')
    for (const k of OBJECT_ONLY) if (k in s) out.push(`${at}.${k}: only allowed for OBJECT type`);
  if (Array.isArray(s.required))
    for (const n of s.required)
      if (!props || !(n in props)) out.push(`${at}.required[${n}]: property is not defined`);
  if (props) for (const [name, p] of Object.entries(props)) problems(p, `${at}.properties[${name}]`, out);
  if (s.items) problems(s.items, `${at}.items`, out);
  if (Array.isArray(s.anyOf)) for (const [i, m] of s.anyOf.entries()) problems(m, `${at}.any_of[${i}]`, out);
  return out;
}

/** Gemini's answer to `q`: a reply when every tool schema passes, else its 400. */
const gemini = (q: RecordedRequest): ScriptStep => {
  const found = (q.body.tools as ToolDefinition[]).flatMap((t, i) =>
    problems(t.function.parameters, `GenerateContentRequest.tools[0].function_declarations[${i}].parameters`),
  );
  if (found.length === 0) return { kind: 'reply', text: 'Done.' };
  return {
    kind: 'error',
    status: 400,
    body: [
      {
        error: {
          code: 400,
          message: found.map((p) => `* ${p}\n`).join(''),
          status: 'INVALID_ARGUMENT',
        },
      },
    ],
  };
};

it("every tool Klebb offers is sent again in a shape Gemini takes, update_row's changes an object", async () => {
  const { toolDefinitions } = await import('../../src/chat/tools/registry.js');
  const own = toolDefinitions();
  gw.script({ kind: 'decide', choose: gemini }, { kind: 'decide', choose: gemini });
  const r = await callGateway(configFor(gw.url), { messages: userSays('x'), stream: true, tools: own });
  expect(r.text).toBe('Done.');
  expect(gw.requests).toHaveLength(2);
  const sent = gw.requests[1].body.tools as ToolDefinition[];
  expect(sent.map((t) => t.function.name)).toEqual(own.map((t) => t.function.name));
  for (const t of sent) expect(problems(t.function.parameters, t.function.name)).toEqual([]);
  const update = sent.find((t) => t.function.name === 'update_row');
  if (!update) throw new Error('update_row was not sent');
  const changes = (update.function.parameters as { properties: Record<string, Node> }).properties.changes;
  expect(changes.type).toBe('object');
  expect(changes).not.toHaveProperty('properties');
  expect(update.function.parameters).toMatchObject({ required: expect.arrayContaining(['changes']) });
});

it('object keywords on a string, and a required name not defined, are left out; the rest is kept', async () => {
  const tools: ToolDefinition[] = [
    {
      type: 'function',
      function: {
        name: 'tag',
        description: 'Tags a row.',
        parameters: {
          type: 'object',
          properties: {
            label: { type: 'string', properties: { x: { type: 'string' } }, required: ['x'] },
            extra: { type: 'object', properties: {}, additionalProperties: { type: 'string' } },
          },
          required: ['label', 'ghost'],
        },
      },
    },
  ];
  gw.script({ kind: 'decide', choose: gemini }, { kind: 'decide', choose: gemini });
  const r = await callGateway(configFor(gw.url), { messages: userSays('x'), stream: true, tools });
  expect(r.text).toBe('Done.');
  expect(gw.requests[1].body.tools[0].function.parameters).toEqual({
    type: 'object',
    properties: { label: { type: 'string' }, extra: { type: 'object' } },
    required: ['label'],
  });
});
