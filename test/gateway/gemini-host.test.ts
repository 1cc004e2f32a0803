// Gemini's own OpenAI-compatible endpoint (generativelanguage.googleapis.com/v1beta/openai) takes
// tool parameters only in its subset of JSON Schema and refuses Klebb's own schemas ('Unknown name
// "additionalProperties" at tools[0].function_declarations[3]...'). The repair that sends them in
// that subset is remembered once learnt, but a fresh server (every restart) was refused once
// first, on every model. Gemini's own host is known to want the subset from the first request.
// The request goes out under Gemini's real host name: the stand-in Gemini is reached through an
// HTTP proxy named in HTTP_PROXY, as a server behind a proxy reaches it.
import { afterEach, expect, it, vi } from 'vitest';
import { callGateway } from '../../src/chat/gateway/client.js';
import type { ToolDefinition } from '../../src/chat/gateway/types.js';
import type { RecordedRequest, ScriptStep } from '../helpers/scripted-gateway.js';
import { configFor, userSays } from './support.js';
import { scriptedGatewayPerTest } from './wire.js';

const gw = scriptedGatewayPerTest();
afterEach(() => {
  vi.unstubAllEnvs();
});

const OUTSIDE_THE_SUBSET = ['additionalProperties', '$schema', 'const', 'propertyNames', 'uniqueItems'];

/** The first keyword outside Gemini's subset used in `schema` (property names aside). */
function outside(schema: unknown): string | undefined {
  if (Array.isArray(schema)) return schema.map(outside).find((k) => k !== undefined);
  if (!schema || typeof schema !== 'object') return undefined;
  for (const [k, v] of Object.entries(schema)) {
    if (OUTSIDE_THE_SUBSET.includes(k)) return k;
    const inner = k === 'properties' && v && typeof v === 'object' ? outside(Object.values(v)) : outside(v);
    if (inner) return inner;
  }
  return undefined;
}

/** Gemini's answer: its 400 for a keyword outside its subset, else a reply. */
const gemini = (q: RecordedRequest): ScriptStep => {
  const tools = (q.body.tools ?? []) as ToolDefinition[];
  const at = tools.findIndex((t) => outside(t.function.parameters) !== undefined);
  if (at < 0) return { kind: 'reply', text: 'You logged 250 ml.' };
  return {
    kind: 'error',
    status: 400,
    body: [
      {
        error: {
          code: 400,
          message: `Invalid JSON payload received. Unknown name "${outside(tools[at].function.parameters)}" at 'tools[0].function_declarations[${at}].parameters': Cannot find field.`,
          status: 'INVALID_ARGUMENT',
        },
      },
    ],
  };
};

/** Sends one request with Klebb's own tools to `host`'s path through the stand-in as the proxy. */
async function askThrough(host: string, model: string) {
  const { toolDefinitions } = await import('../../src/chat/tools/registry.js');
  vi.stubEnv('http_proxy', new URL(gw.url).origin);
  vi.stubEnv('no_proxy', '');
  const config = configFor(`http://${host}/v1beta/openai/chat/completions`, { maxRetries: 0 });
  return callGateway(
    { ...config, model },
    { messages: userSays('water'), stream: false, tools: toolDefinitions() },
  );
}

it("Gemini's own host gets its schema subset from the first request: no refusal first", async () => {
  gw.script({ kind: 'decide', choose: gemini }, { kind: 'decide', choose: gemini });
  const result = await askThrough('generativelanguage.googleapis.com', 'gemini-2.5-flash');
  expect(result.text).toBe('You logged 250 ml.');
  expect(gw.requests).toHaveLength(1);
  expect(gw.requests[0].path).toBe('http://generativelanguage.googleapis.com/v1beta/openai/chat/completions');
  expect(gw.requests[0].headers.host).toBe('generativelanguage.googleapis.com');
});

it('another host still gets the schemas whole, and the subset only after a refusal', async () => {
  gw.script({ kind: 'decide', choose: gemini }, { kind: 'decide', choose: gemini });
  const result = await askThrough('llm.example.net', 'gemini-2.5-flash');
  expect(result.text).toBe('You logged 250 ml.');
  expect(gw.requests).toHaveLength(2);
  expect(
    outside((gw.requests[0].body.tools as ToolDefinition[]).map((t) => t.function.parameters)),
  ).toBeDefined();
});

it('Gemini on Vertex AI gets the subset from the first request; another model there gets the schemas whole', async () => {
  gw.script({ kind: 'decide', choose: gemini });
  const result = await askThrough('us-central1-aiplatform.googleapis.com', 'google/gemini-2.5-flash');
  expect(result.text).toBe('You logged 250 ml.');
  expect(gw.requests).toHaveLength(1);
  gw.script({ kind: 'reply', text: 'Llama here.' });
  await askThrough('us-central1-aiplatform.googleapis.com', 'meta/llama-3.3-70b-instruct-maas');
  expect(
    outside((gw.requests[1].body.tools as ToolDefinition[]).map((t) => t.function.parameters)),
  ).toBeDefined();
});
