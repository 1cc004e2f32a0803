/**
 * A card's name and the other texts shown as one line (input labels, placeholders, options, a
 * reminder's label and title) are refused with 400 naming the field when they hold a line break,
 * tab or other control character, on create and on change, whoever writes (REST, the chat tools
 * over MCP); nothing is written. A card file written by hand with such a label still loads, and a
 * change that leaves that label alone goes through.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';

const T = 'one-line-token';
let s: TestServer;

const card = (id: string, meta: Record<string, unknown> = {}) => ({
  $schema: 'klebb.datafile.v1',
  meta: { id, label: `Card ${id}`, writeable: { fromWebapp: true }, ...meta },
  data: [],
});

const reminder = (over: Record<string, unknown>) => ({
  notifications: {
    items: [
      {
        id: 'evening',
        label: 'Evening',
        title: 'Log it',
        body: 'Time to log',
        trigger: { type: 'daily', time: '21:00' },
        ...over,
      },
    ],
  },
});

const input = (over: Record<string, unknown>) => ({
  writeable: {
    fromWebapp: true,
    inputs: [{ key: 'a', type: 'select', label: 'A', options: ['x'], ...over }],
  },
});

beforeAll(async () => {
  s = await startServer({
    env: { AGENT_API_TOKEN: T },
    before: (_home, dataDir) => {
      fs.mkdirSync(dataDir, { recursive: true });
      fs.writeFileSync(
        path.join(dataDir, 'by-hand.json'),
        JSON.stringify(card('by-hand', { label: 'Two\nlines' })),
      );
    },
  });
});
afterAll(async () => {
  await s?.close();
});

describe('one-line names', () => {
  it.each([
    ['a newline in the label', card('n1', { label: 'Body\nweight' }), 'meta.label', 'line break'],
    ['CRLF in the label', card('n2', { label: 'Body weight\r\n' }), 'meta.label', 'line break'],
    ['a tab in the label', card('n3', { label: 'Body\tweight' }), 'meta.label', 'tab'],
    ['a line separator in the label', card('n4', { label: 'Body\u2028weight' }), 'meta.label', 'line break'],
    ['NUL in the label', card('n5', { label: 'Body\u0000weight' }), 'meta.label', 'U+0000'],
    [
      'a newline in an input label',
      card('n6', input({ label: 'How\nmuch' })),
      'meta.writeable.inputs[0].label',
      'line break',
    ],
    [
      'a newline in a placeholder',
      card('n7', input({ placeholder: 'e.g.\n5' })),
      'meta.writeable.inputs[0].placeholder',
      'line break',
    ],
    [
      'a newline in an option',
      card('n8', input({ options: ['ok', 'not\nok'] })),
      'meta.writeable.inputs[0].options[1]',
      'line break',
    ],
    [
      'a newline in an option label',
      card('n9', input({ options: [{ value: 'v', label: 'V\nW' }] })),
      'meta.writeable.inputs[0].options[0].label',
      'line break',
    ],
    [
      'a newline in a reminder title',
      card('n10', reminder({ title: 'Log\nit' })),
      'meta.notifications.items[0].title',
      'line break',
    ],
    [
      'a newline in a reminder label',
      card('n11', reminder({ label: 'Even\ning' })),
      'meta.notifications.items[0].label',
      'line break',
    ],
  ])(
    'REST create refuses %s with 400 naming the field; nothing is created',
    async (_what, manifest, field, named) => {
      const r = await s.api('/api/manifests', { token: T, json: manifest });
      expect(r.status, r.text).toBe(400);
      expect(r.body.details.map((d: { path: string }) => d.path)).toEqual([field]);
      expect(r.body.error).toContain(field);
      expect(r.body.error).toContain(named);
      expect((await s.api(`/api/manifests/${manifest.meta.id}`, { token: T })).status).toBe(404);
    },
  );

  it('a one-line label with spaces, emoji and right-to-left letters is taken', async () => {
    const r = await s.api('/api/manifests', { token: T, json: card('fine', { label: 'Body weight ⚖️ وزن' }) });
    expect(r.status, r.text).toBe(201);
  });

  it('REST patch refuses a label with a newline and keeps the old one', async () => {
    expect((await s.api('/api/manifests', { token: T, json: card('p1') })).status).toBe(201);
    const r = await s.api('/api/manifests/p1', {
      token: T,
      method: 'PATCH',
      json: { meta: { label: 'A\nB' } },
    });
    expect(r.status).toBe(400);
    expect(r.body.details[0].path).toBe('meta.label');
    expect((await s.api('/api/manifests/p1', { token: T })).body.meta.label).toBe('Card p1');
  });

  it.each([
    ['a Hangul filler', '\u3164'],
    ['a half-width Hangul filler', '\uffa0'],
    ['a blank braille pattern', '\u2800'],
    ['a Hangul choseong filler and spaces', ' \u115f '],
  ])(
    'a label of a character drawn as nothing (%s) is refused, on create and on change',
    async (what, label) => {
      const id = `blank-${[...what].filter((c) => /[a-z]/.test(c)).length}`;
      const made = await s.api('/api/manifests', { token: T, json: card(id, { label }) });
      expect(made.status, made.text).toBe(400);
      expect(made.body.details[0].path).toBe('meta.label');
      expect((await s.api(`/api/manifests/${id}`, { token: T })).status).toBe(404);
      expect((await s.api('/api/manifests', { token: T, json: card(id) })).status).toBe(201);
      const renamed = await s.api(`/api/manifests/${id}`, {
        token: T,
        method: 'PATCH',
        json: { meta: { label } },
      });
      expect(renamed.status, renamed.text).toBe(400);
      expect(renamed.body.details[0].path).toBe('meta.label');
      expect((await s.api(`/api/manifests/${id}`, { token: T })).body.meta.label).toBe(`Card ${id}`);
    },
  );

  it('the chat tools (over MCP) refuse the same: create, set_notification, validate_manifest', async () => {
    const client = new Client({ name: 'test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${T}` } },
      }),
    );
    try {
      const created = await client.callTool({
        name: 'create_manifest',
        arguments: { manifest: card('m1', { label: 'Mood\nlog' }) },
      });
      expect(created.isError).toBe(true);
      expect(JSON.stringify(created.content)).toContain('meta.label');
      expect((await s.api('/api/manifests/m1', { token: T })).status).toBe(404);

      expect((await s.api('/api/manifests', { token: T, json: card('m2') })).status).toBe(201);
      const set = await client.callTool({
        name: 'set_notification',
        arguments: {
          card_id: 'm2',
          label: 'Evening',
          title: 'Log\nyour mood',
          body: 'How was today?',
          trigger: { type: 'daily', time: '21:00' },
        },
      });
      expect(set.isError, JSON.stringify(set.content)).toBe(true);
      expect(JSON.stringify(set.content)).toContain('title');
      expect((await s.api('/api/manifests/m2', { token: T })).body.meta.notifications).toBeUndefined();

      const dry = await client.callTool({
        name: 'validate_manifest',
        arguments: { manifest: card('m3', { label: 'A\r\nB' }) },
      });
      expect(JSON.stringify(dry.content)).toContain('meta.label');
    } finally {
      await client.close();
    }
  });

  it('a card file with a two-line label still loads, and a change that leaves the label goes through', async () => {
    const r = await s.api('/api/manifests/by-hand', { token: T });
    expect(r.status).toBe(200);
    expect(r.body.meta.label).toBe('Two\nlines');
    const patched = await s.api('/api/manifests/by-hand', {
      token: T,
      method: 'PATCH',
      json: { meta: { emoji: '📝' } },
    });
    expect(patched.status, patched.text.slice(0, 300)).toBe(200);
    const fixed = await s.api('/api/manifests/by-hand', {
      token: T,
      method: 'PATCH',
      json: { meta: { label: 'Two lines' } },
    });
    expect(fixed.status).toBe(200);
  });
});
