/**
 * A card whose entry form could never take a value is refused when it is made or changed, not
 * found out when the person tries to save: an input with min above max, a select with no options
 * (it took any value), a rating of a million steps (entries then met "must be at most 10"), a
 * maxLength below 1, two inputs filling one key. The REST routes and the tools (chat and MCP)
 * share one validator: 422 INVALID naming the field, nothing written. A hand-written file with
 * such inputs still loads as written, listed with FIELD_UNUSABLE.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';

const T = 'unworkable-inputs-token';
let s: TestServer;
const agent = (p: string, init: Parameters<TestServer['api']>[1] = {}) => s.api(p, { token: T, ...init });

/** The inputs that can never work, each with the field a refusal must name. */
const UNWORKABLE: [string, Record<string, unknown>[], string][] = [
  ['min above max', [{ key: 'n', type: 'number', min: 10, max: 1 }], 'meta.writeable.inputs[0].max'],
  [
    'a select without options',
    [{ key: 'c', type: 'select', options: [] }],
    'meta.writeable.inputs[0].options',
  ],
  [
    'a rating of a million steps',
    [{ key: 'r', type: 'rating', max: 1000000 }],
    'meta.writeable.inputs[0].max',
  ],
  ['a negative maxLength', [{ key: 't', type: 'text', maxLength: -1 }], 'meta.writeable.inputs[0].maxLength'],
  [
    'one key twice',
    [
      { key: 'n', type: 'number' },
      { key: 'n', type: 'text' },
    ],
    'meta.writeable.inputs[1].key',
  ],
];

const card = (id: string, inputs: unknown[]) => ({
  $schema: 'klebb.datafile.v1',
  meta: { id, label: `Card ${id}`, writeable: { fromWebapp: true, inputs } },
  data: [],
});

/** A hand-written card file with every unworkable input at once. */
const HAND_WRITTEN = card('hand', [
  { key: 'n', type: 'number', min: 10, max: 1 },
  { key: 'c', type: 'select', options: [] },
  { key: 'r', type: 'rating', max: 1000000 },
  { key: 't', type: 'text', maxLength: -1 },
  { key: 'n', type: 'text' },
]);

beforeAll(async () => {
  s = await startServer({
    env: { AGENT_API_TOKEN: T },
    before: (_home, dataDir) => {
      fs.mkdirSync(dataDir, { recursive: true });
      fs.writeFileSync(path.join(dataDir, 'hand.json'), JSON.stringify(HAND_WRITTEN, null, 2));
    },
  });
  expect((await agent('/api/manifests', { json: card('fine', [{ key: 'n', type: 'number' }]) })).status).toBe(
    201,
  );
});
afterAll(async () => {
  await s?.close();
});

describe('REST', () => {
  it.each(UNWORKABLE)(
    'create with %s is 422 naming the field, and makes no card',
    async (_what, inputs, field) => {
      const r = await agent('/api/manifests', { json: card('bad', inputs) });
      expect(r.status).toBe(422);
      expect(r.body.code).toBe('INVALID');
      expect(r.body.details.map((d: { path: string }) => d.path)).toEqual([field]);
      expect((await agent('/api/manifests/bad')).status).toBe(404);
    },
  );

  it.each(UNWORKABLE)(
    'a patch to %s is 422 naming the field, and changes nothing',
    async (_what, inputs, field) => {
      const before = (await agent('/api/manifests/fine')).body;
      const r = await agent('/api/manifests/fine', {
        method: 'PATCH',
        json: { meta: { writeable: { inputs } } },
        headers: { 'content-type': 'application/merge-patch+json' },
      });
      expect(r.status).toBe(422);
      expect(r.body.details.map((d: { path: string }) => d.path)).toEqual([field]);
      expect((await agent('/api/manifests/fine')).body).toEqual(before);
    },
  );

  it('options that can work are taken', async () => {
    const ok = card('ok', [
      { key: 'n', type: 'number', min: 1, max: 1 },
      { key: 'c', type: 'select', options: ['a', { value: 'b', label: 'B' }] },
      { key: 'r', type: 'rating', min: 1, max: 10 },
      { key: 't', type: 'text', maxLength: 1 },
    ]);
    expect((await agent('/api/manifests', { json: ok })).status).toBe(201);
  });
});

describe('MCP (the chat tools)', () => {
  it('create_manifest and patch_manifest refuse the same inputs naming the same field', async () => {
    // the person approves the patch when asked (a change to a card's form asks first)
    const client = new Client({ name: 'test', version: '1.0.0' }, { capabilities: { elicitation: {} } });
    client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'accept', content: {} }));
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${T}` } },
      }),
    );
    const text = (r: object) => JSON.parse((r as { content: { text: string }[] }).content[0].text);
    for (const [what, inputs, field] of UNWORKABLE) {
      const made = await client.callTool({
        name: 'create_manifest',
        arguments: { manifest: card('viamcp', inputs) },
      });
      expect(made.isError, what).toBe(true);
      expect(text(made).code, what).toBe('INVALID');
      expect(
        text(made).details.map((d: { path: string }) => d.path),
        what,
      ).toEqual([field]);
      const patched = await client.callTool({
        name: 'patch_manifest',
        arguments: { id: 'fine', patch: { meta: { writeable: { inputs } } } },
      });
      expect(patched.isError, what).toBe(true);
      expect(
        text(patched).details.map((d: { path: string }) => d.path),
        what,
      ).toEqual([field]);
    }
    await client.close();
    expect((await agent('/api/manifests/viamcp')).status).toBe(404);
  });
});

describe('a hand-written file with such inputs', () => {
  it('loads as written, each unworkable field listed as FIELD_UNUSABLE', async () => {
    const list = await agent('/api/manifests');
    expect(list.body.entries.map((c: { meta: { id: string } }) => c.meta.id)).toContain('hand');
    const notes = list.body.errors.filter((e: { id?: string }) => e.id === 'hand');
    expect(notes.map((e: { code: string; path: string }) => `${e.code} ${e.path}`).sort()).toEqual(
      [
        'FIELD_UNUSABLE meta.writeable.inputs[0].max',
        'FIELD_UNUSABLE meta.writeable.inputs[1].options',
        'FIELD_UNUSABLE meta.writeable.inputs[2].max',
        'FIELD_UNUSABLE meta.writeable.inputs[3].maxLength',
        'FIELD_UNUSABLE meta.writeable.inputs[4].key',
      ].sort(),
    );
    expect((await agent('/api/manifests/hand')).body.meta.writeable.inputs).toHaveLength(5);
    expect((await agent('/api/views/view')).status).toBe(200);
  });
});
