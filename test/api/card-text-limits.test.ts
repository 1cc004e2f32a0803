/**
 * Card texts have length limits (src/limits.ts) on create and update, whoever writes: the REST
 * routes and the tools (chat and MCP share them) refuse a label, description, input label or
 * option over its limit with 400 naming the field, and nothing is written. A card file that
 * already has longer texts still loads whole and stays editable.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_CARD_DESCRIPTION_CHARS, MAX_CARD_EMOJI_CHARS, MAX_CARD_LABEL_CHARS } from '../../src/limits.js';
import { startServer, type TestServer } from '../helpers/server.js';

const T = 'text-limits-token';
const LONG = 'x'.repeat(100_000);
let s: TestServer;

const card = (id: string, meta: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) => ({
  $schema: 'klebb.datafile.v1',
  meta: { id, label: `Card ${id}`, writeable: { fromWebapp: true }, ...meta },
  data: [],
  ...extra,
});

beforeAll(async () => {
  s = await startServer({
    env: { AGENT_API_TOKEN: T },
    before: (_home, dataDir) => {
      fs.mkdirSync(dataDir, { recursive: true });
      fs.writeFileSync(
        path.join(dataDir, 'old-long.json'),
        JSON.stringify(card('old-long', { label: LONG })),
      );
    },
  });
});
afterAll(async () => {
  await s?.close();
});

describe('card text limits', () => {
  it('REST create refuses each text over its limit with 400 naming the field; nothing is created', async () => {
    const input = (over: Record<string, unknown>) => ({
      writeable: {
        fromWebapp: true,
        inputs: [{ key: 'a', type: 'select', label: 'A', options: ['x'], ...over }],
      },
    });
    const cases: [Record<string, unknown>, string][] = [
      [card('c1', { label: LONG }), 'meta.label'],
      [card('c2', {}, { description: 'd'.repeat(MAX_CARD_DESCRIPTION_CHARS + 1) }), 'description'],
      [card('c3', input({ label: LONG })), 'meta.writeable.inputs[0].label'],
      [card('c4', input({ options: ['ok', LONG] })), 'meta.writeable.inputs[0].options[1]'],
      [
        card('c5', input({ options: [{ value: 'v', label: LONG }] })),
        'meta.writeable.inputs[0].options[0].label',
      ],
    ];
    for (const [manifest, field] of cases) {
      const r = await s.api('/api/manifests', { token: T, json: manifest });
      expect(r.status, field).toBe(400);
      expect(r.body.code, field).toBe('BAD_REQUEST');
      expect(
        r.body.details.map((d: { path: string }) => d.path),
        field,
      ).toEqual([field]);
      expect(r.text.length, 'the long text is not echoed back').toBeLessThan(2000);
      const id = (manifest.meta as { id: string }).id;
      expect((await s.api(`/api/manifests/${id}`, { token: T })).status).toBe(404);
    }
    const at = await s.api('/api/manifests', {
      token: T,
      json: card('at-limit', { label: 'é'.repeat(MAX_CARD_LABEL_CHARS) }),
    });
    expect(at.status, at.text).toBe(201);
  });

  it("meta.emoji and an emoji-picker's emojis: at most a few characters, one line", async () => {
    const picker = (emojis: unknown[]) => ({
      writeable: { fromWebapp: true, inputs: [{ key: 'mood', type: 'emoji-picker', emojis }] },
    });
    const cases: [Record<string, unknown>, string][] = [
      [card('e1', { emoji: LONG }), 'meta.emoji'],
      [card('e2', { emoji: `a${'\u0301'.repeat(5000)}` }), 'meta.emoji'],
      [card('e3', { emoji: '🩺\n' }), 'meta.emoji'],
      [card('e4', { emoji: '\u0007' }), 'meta.emoji'],
      [card('e5', { emoji: '💊'.repeat(MAX_CARD_EMOJI_CHARS + 1) }), 'meta.emoji'],
      [card('e6', picker(['🙂', LONG])), 'meta.writeable.inputs[0].emojis[1]'],
      [card('e7', picker(['🙂', '😐\t'])), 'meta.writeable.inputs[0].emojis[1]'],
    ];
    for (const [manifest, field] of cases) {
      const r = await s.api('/api/manifests', { token: T, json: manifest });
      expect(r.status, field).toBe(400);
      expect(
        r.body.details.map((d: { path: string }) => d.path),
        field,
      ).toEqual([field]);
      const id = (manifest.meta as { id: string }).id;
      expect((await s.api(`/api/manifests/${id}`, { token: T })).status).toBe(404);
    }
    for (const emoji of ['🩺', '🏋️', '👨‍👩‍👧‍👦', '🇳🇿', '💊'.repeat(MAX_CARD_EMOJI_CHARS)]) {
      const r = await s.api('/api/manifests', {
        token: T,
        json: card(`ok-${emoji.codePointAt(0)}`, { emoji }),
      });
      expect(r.status, `${emoji}: ${r.text}`).toBe(201);
    }
    await s.api('/api/manifests', { token: T, json: card('patch-emoji', { emoji: '🩺' }) });
    const p = await s.api('/api/manifests/patch-emoji', {
      method: 'PATCH',
      token: T,
      json: { meta: { emoji: 'x'.repeat(50) } },
    });
    expect(p.status).toBe(400);
    expect((await s.api('/api/manifests/patch-emoji', { token: T })).body.meta.emoji).toBe('🩺');
  });

  it('REST patch refuses a label over the limit and keeps the old one', async () => {
    await s.api('/api/manifests', { token: T, json: card('p1') });
    const r = await s.api('/api/manifests/p1', {
      token: T,
      method: 'PATCH',
      json: { meta: { label: LONG } },
    });
    expect(r.status).toBe(400);
    expect(r.body.details[0].path).toBe('meta.label');
    expect((await s.api('/api/manifests/p1', { token: T })).body.meta.label).toBe('Card p1');
  });

  it('MCP (the chat tools) refuses the same, naming the field', async () => {
    const client = new Client({ name: 'test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${T}` } },
      }),
    );
    try {
      const created = await client.callTool({
        name: 'create_manifest',
        arguments: { manifest: card('m1', { label: LONG }) },
      });
      expect(created.isError).toBe(true);
      expect(JSON.stringify(created.content)).toContain('meta.label');
      expect((await s.api('/api/manifests/m1', { token: T })).status).toBe(404);
      const dry = await client.callTool({
        name: 'validate_manifest',
        arguments: { manifest: card('m2', { label: LONG }) },
      });
      expect(JSON.stringify(dry.content)).toContain('meta.label');
    } finally {
      await client.close();
    }
  });

  it('a card file with a longer label still loads whole and can be edited', async () => {
    const r = await s.api('/api/manifests/old-long', { token: T });
    expect(r.status).toBe(200);
    expect(r.body.meta.label).toBe(LONG);
    const patched = await s.api('/api/manifests/old-long', {
      token: T,
      method: 'PATCH',
      json: { meta: { emoji: '📝' } },
    });
    expect(patched.status, patched.text.slice(0, 300)).toBe(200);
  });
});
