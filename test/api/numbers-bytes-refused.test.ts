/**
 * Numbers JavaScript cannot keep as written (1e999 → null, 1e-400 → 0, integers past 2^53 rounded)
 * and bytes that are not UTF-8 (→ U+FFFD) are refused with a 400 naming the field on every write
 * path: card creation, data replacement, rows, entries, chat tool arguments (checked on the text
 * the model sent, so 1e300 is kept there as over REST); a dropped-in file with one is reported in
 * the load errors. Nothing is stored.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readToolArguments } from '../../src/chat/gateway/tool-arguments.js';
import { contentText, type ScriptedGateway, startScriptedGateway } from '../helpers/scripted-gateway.js';
import { startServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
let gw: ScriptedGateway;
const CARD = {
  $schema: 'klebb.datafile.v1',
  meta: {
    id: 'steps',
    label: 'Steps',
    writeable: { fromWebapp: true, inputs: [{ key: 'count', label: 'Count', type: 'number' }] },
  },
};

beforeAll(async () => {
  gw = await startScriptedGateway();
  s = await startServer({
    env: { CHAT_ENDPOINT_URL: gw.url, CHAT_API_KEY: 'sk-test', CHAT_MODEL: 'test-model' },
  });
  const r = await s.api('/api/manifests', { json: { ...CARD, data: [{ date: '2026-01-01', count: 1 }] } });
  expect(r.status, r.text).toBe(201);
});
afterAll(async () => {
  await s?.close();
  await gw?.close();
});

const raw = (p: string, text: string | Buffer, method = 'POST') =>
  s.api(p, { method, body: text, headers: { 'content-type': 'application/json' } });

const rows = async () => (await s.api('/api/manifests/steps/data')).body.data;

describe('numbers that would be stored changed', () => {
  it.each([
    ['1e999', 'too large'],
    ['-1e999', 'too large'],
    ['1e-400', 'too small'],
    ['9007199254740993', 'larger than 2^53'],
    [`0.${'0'.repeat(400)}1`, 'too small'],
    ['12345678901234567.0', 'more digits than a number keeps'],
    [`1.${'0'.repeat(31)}1`, 'more digits than a number keeps'],
    ['0.1000000000000000055511151231257827', 'more digits than a number keeps'],
  ])('%s in a row append is 400 NUMBER_OUT_OF_RANGE naming value.count', async (num, words) => {
    const r = await raw('/api/manifests/steps/rows', `{"value": {"date": "2026-01-02", "count": ${num}}}`);
    expect(r.status, r.text).toBe(400);
    expect(r.body.code).toBe('NUMBER_OUT_OF_RANGE');
    expect(r.body.details[0].path).toBe('body.value.count');
    expect(r.body.error).toContain(words);
    expect(await rows()).toHaveLength(1);
  });

  it('numbers JavaScript keeps are accepted (1e3, 9007199254740991, 0e5, 1.5e-300, 0.30000000000000004)', async () => {
    const r = await raw(
      '/api/manifests/steps/data',
      '{"data": [{"date": "2026-01-01", "count": 1e3, "a": 9007199254740991, "b": 0e5, "c": 1.5e-300, "d": 0.30000000000000004}]}',
    );
    expect(r.status, r.text).toBe(200);
    expect((await rows())[0]).toEqual({
      date: '2026-01-01',
      count: 1000,
      a: 9007199254740991,
      b: 0,
      c: 1.5e-300,
      d: 0.30000000000000004,
    });
  });

  it('on card creation, data replacement and entries too, naming the field', async () => {
    const create = await raw(
      '/api/manifests',
      JSON.stringify({ ...CARD, meta: { ...CARD.meta, id: 'other' } }).replace(
        /}$/,
        ', "data": [{"x": 1e999}]}',
      ),
    );
    expect(create.status, create.text).toBe(400);
    expect(create.body.details[0].path).toBe('body.data[0].x');
    expect((await s.api('/api/manifests/other')).status).toBe(404);

    const put = await raw('/api/manifests/steps/data', '{"data": [{"n": 12345678901234567890}]}');
    expect(put.status).toBe(400);
    expect(put.body.details[0].path).toBe('body.data[0].n');

    const entry = await raw(
      '/api/manifests/steps/entries',
      '{"entry": {"date": "2026-01-03", "count": 1e400}}',
    );
    expect(entry.status, entry.text).toBe(400);
    expect(entry.body.code).toBe('NUMBER_OUT_OF_RANGE');
    expect(entry.body.details[0].path).toBe('body.entry.count');
    expect(await rows()).toHaveLength(1);
  });

  it('a chat tool call with such a number is refused naming the argument', () => {
    const r = readToolArguments('{"id": "steps", "value": {"count": 1e999}}');
    expect(r.parsed).toBeUndefined();
    expect(r.numberProblem).toMatchObject({ path: 'value.count' });
    expect(r.error).toContain('value.count is 1e999');
    expect(readToolArguments('{"value": {"count": 1e3}}').parsed).toEqual({ value: { count: 1000 } });
    // double-encoded arguments are checked on their decoded text
    expect(
      readToolArguments(JSON.stringify('{"value": {"count": 9007199254740993}}')).numberProblem,
    ).toMatchObject({ path: 'value.count' });
  });

  it('1e300 is kept, and the same numbers are refused alike over REST and in a chat tool call', async () => {
    // a card of its own, so the other tests' row counts stay as they are
    const card = { ...CARD, meta: { ...CARD.meta, id: 'big' }, data: [] };
    expect((await s.api('/api/manifests', { json: card })).status).toBe(201);
    const bigRows = async () => (await s.api('/api/manifests/big/data')).body.data;
    const kept = await raw('/api/manifests/big/rows', '{"value": {"date": "2026-01-05", "count": 1e300}}');
    expect(kept.status, kept.text).toBe(201);
    const refused = ['1e400', '9007199254740993', '0.1000000000000000055511151231257827'];
    for (const n of refused) {
      const r = await raw('/api/manifests/big/rows', `{"value": {"date": "2026-01-06", "count": ${n}}}`);
      expect(r.status, r.text).toBe(400);
      expect(r.body).toMatchObject({ code: 'NUMBER_OUT_OF_RANGE', details: [{ path: 'body.value.count' }] });
    }
    // the model sends the arguments as text, as the OpenAI shape has it: the same check on that text
    const call = (id: string, n: string) => ({
      id,
      name: 'append_row',
      arguments: `{"id": "big", "value": {"date": "2026-01-07", "count": ${n}}}`,
    });
    gw.script(
      { kind: 'reply', toolCalls: [call('k', '1e300'), ...refused.map((n, i) => call(`r${i}`, n))] },
      { kind: 'reply', text: 'Done.' },
    );
    const chat = await s.api('/api/chat', { json: { messages: [{ role: 'user', content: 'log steps' }] } });
    expect(chat.body.reply, chat.text).toBe('Done.');
    const replies = gw.requests
      .at(-1)
      ?.body.messages.filter((m: { role: string }) => m.role === 'tool')
      .map((m: { content: unknown }) => JSON.parse(contentText(m.content)));
    expect(replies).toHaveLength(1 + refused.length);
    expect(replies[0]).toMatchObject({ ok: true, added: 1 });
    for (const [i, n] of refused.entries()) {
      expect(replies[i + 1]).toMatchObject({
        code: 'NUMBER_OUT_OF_RANGE',
        details: [{ path: 'value.count' }],
      });
      expect(replies[i + 1].error).toContain(n);
    }
    const after = await bigRows();
    expect(after).toHaveLength(2);
    expect(after.filter((r: { count: unknown }) => r.count === 1e300)).toHaveLength(2);
  });

  it('a dropped-in file with one is reported, not loaded changed', async () => {
    const file = path.join(s.dataDir, 'dropped.json');
    fs.writeFileSync(
      file,
      '{"$schema": "klebb.datafile.v1", "meta": {"id": "dropped", "label": "D", "order": 1e999}}',
    );
    s.inst.cards.loader.safeLoad(file);
    const list = (await s.api('/api/manifests')).body;
    expect(list.entries.some((e: { id: string }) => e.id === 'dropped')).toBe(false);
    const err = list.errors.find((e: { file: string }) => e.file === 'dropped.json');
    expect(err).toMatchObject({ code: 'NUMBER_OUT_OF_RANGE', path: 'meta.order' });
  });
});

describe('bytes that are not UTF-8', () => {
  const bad = (before: string, after: string) =>
    Buffer.concat([Buffer.from(before), Buffer.from([0xc3, 0x28]), Buffer.from(after)]);

  it('in a row append are 400 INVALID_UTF8 naming the field; nothing is stored', async () => {
    const r = await raw(
      '/api/manifests/steps/rows',
      bad('{"value": {"date": "2026-01-02", "note": "caf', '"}}'),
    );
    expect(r.status, r.text).toBe(400);
    expect(r.body.code).toBe('INVALID_UTF8');
    expect(r.body.details[0].path).toBe('body.value.note');
    expect(await rows()).toHaveLength(1);
  });

  it('in a dropped-in file are reported with the field', async () => {
    const file = path.join(s.dataDir, 'latin1.json');
    fs.writeFileSync(
      file,
      bad('{"$schema": "klebb.datafile.v1", "meta": {"id": "latin1", "label": "Caf', '"}}'),
    );
    s.inst.cards.loader.safeLoad(file);
    const list = (await s.api('/api/manifests')).body;
    expect(list.errors.find((e: { file: string }) => e.file === 'latin1.json')).toMatchObject({
      code: 'INVALID_UTF8',
      path: 'meta.label',
    });
  });

  it('well-formed multi-byte text still goes through', async () => {
    const r = await raw(
      '/api/manifests/steps/rows',
      Buffer.from('{"value": {"date": "2026-01-04", "note": "café 🫀"}}'),
    );
    expect(r.status, r.text).toBe(201);
    expect((await rows()).at(-1).note).toBe('café 🫀');
  });
});
