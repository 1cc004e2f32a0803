/**
 * The tool registry (src/chat/tools/registry.ts): unknown names, schema failures, unparseable
 * arguments, and the wire shape of toolDefinitions().
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_TOOLS, findTool, toolDefinitions } from '../../src/chat/tools/registry.js';
import { type ToolEnv, toolEnv } from './harness.js';

/** The tool table of docs/CHAT-AGENT.md, every name. */
const SEED_TOOLS = [
  'create_manifest',
  'delete_manifest',
  'patch_manifest',
  'read_manifest',
  'list_manifests',
  'write_manifest_data',
  'read_manifest_meta',
  'read_manifest_rows',
  'append_row',
  'update_row',
  'remove_row',
  'reorder_rows',
  'hide_card',
  'show_card',
  'set_notification',
  'remove_notification',
  'read_doc',
  'read_report',
  'get_recent_activity',
  'hygiene_scan',
  'validate_manifest',
  'note_feedback',
  'undo_last_change',
];

let t: ToolEnv;
beforeAll(async () => {
  t = await toolEnv();
});
afterAll(async () => {
  await t.close();
});

describe('dispatchToolCall', () => {
  it('an unknown tool name is an error listing the tools', async () => {
    const r = await t.call('reboot_server', {});
    expect(r.ok).toBe(false);
    expect(r.json.error).toContain('reboot_server');
    for (const name of SEED_TOOLS) expect(r.json.error).toContain(name);
  });

  it('a number whose text would not be kept (found on the arguments text) is refused naming its place; parsed values are not re-checked', async () => {
    // the card does not even need to exist: the refusal comes before any tool
    const problem = {
      path: 'value.n',
      message: 'is 1e400, too large to store as a number (it would become null)',
    };
    const inf = await t.call('append_row', undefined, problem);
    expect(inf.ok).toBe(false);
    expect(inf.json).toMatchObject({ code: 'NUMBER_OUT_OF_RANGE', details: [problem] });
    expect(inf.json.error).toBe(`value.n ${problem.message}`);
    // 1e300 is a number JavaScript keeps as written: it passes (and then fails for the unknown card)
    const big = await t.call('append_row', { id: 'nope', value: { n: 1e300, m: 2 ** 53 - 1, x: 0.1 } });
    expect(big.json.code).toBe('CARD_NOT_FOUND');
  });

  it('arguments failing the schema give {error, details} naming the field, and run nothing', async () => {
    const wrongType = await t.call('read_manifest', { id: 5 });
    expect(wrongType.ok).toBe(false);
    expect(wrongType.json.error).toContain('read_manifest');
    expect(wrongType.json.details.map((d: { path: string }) => d.path)).toContain('id');
    for (const d of wrongType.json.details) expect(typeof d.message).toBe('string');

    const missing = await t.call('append_row', { value: { x: 1 } });
    expect(missing.json.details.map((d: { path: string }) => d.path)).toContain('id');

    const nested = await t.call('set_notification', {
      card_id: 'welcome',
      label: 'x',
      title: 'x',
      body: 'x',
      trigger: { type: 'daily', time: 730 },
    });
    expect(nested.ok).toBe(false);
    expect(nested.json.details.map((d: { path: string }) => d.path)).toContain('trigger.time');
    expect(t.file('welcome').meta).not.toHaveProperty('notifications');

    const badOrder = await t.call('read_manifest_rows', { id: 'welcome', order: 'newest' });
    expect(badOrder.json.details.map((d: { path: string }) => d.path)).toContain('order');

    const notObject = await t.call('read_manifest', 'welcome');
    expect(notObject.ok).toBe(false);
    expect(notObject.json.details[0].path).toBe('(arguments)');
  });

  it('argumentsError (unparseable JSON) is an error, whatever args say', async () => {
    const r = await t.call('list_manifests', undefined, 'Unexpected token } in JSON at position 7');
    expect(r.ok).toBe(false);
    expect(r.json.error).toMatch(/not valid JSON/);
    expect(r.json.error).toContain('Unexpected token');
    const withArgs = await t.call('delete_manifest', { id: 'welcome' }, 'trailing garbage');
    expect(withArgs.ok).toBe(false);
    expect(t.file('welcome')).toBeDefined();
    // no arguments at all (models send "" for tools without parameters) count as {}
    const none = await t.call('list_manifests', undefined);
    expect(none.ok).toBe(true);
    const missingId = await t.call('delete_manifest', undefined);
    expect(missingId.ok).toBe(false);
    expect(missingId.json.code).toBe('BAD_ARGUMENTS');
  });

  it('a tool that throws becomes {error}; cardId is reported when known', async () => {
    const r = await t.call('read_manifest_meta', { id: 'ghost' });
    expect(r.ok).toBe(false);
    expect(r.cardId).toBe('ghost');
    expect(r.json).toMatchObject({ code: 'CARD_NOT_FOUND', id: 'ghost' });
    const list = await t.call('list_manifests', {});
    expect(list.cardId).toBeUndefined();
  });
});

describe('toolDefinitions()', () => {
  const defs = toolDefinitions();

  it('offers exactly the documented tools, once each', () => {
    const names = defs.map((d) => d.function.name);
    expect(new Set(names).size).toBe(names.length);
    expect([...names].sort()).toEqual([...SEED_TOOLS].sort());
    expect(ALL_TOOLS.map((x) => x.name)).toEqual(names);
    for (const n of SEED_TOOLS) expect(findTool(n)?.name).toBe(n);
    expect(findTool('nope')).toBeUndefined();
  });

  it('each is {type:"function", function:{name, description, parameters}} with object parameters', () => {
    for (const d of defs) {
      expect(Object.keys(d)).toEqual(['type', 'function']);
      expect(d.type).toBe('function');
      expect(Object.keys(d.function).sort()).toEqual(['description', 'name', 'parameters']);
      expect(d.function.name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
      expect(typeof d.function.description).toBe('string');
      expect((d.function.description ?? '').length).toBeGreaterThan(10);
      const p = d.function.parameters as {
        type: string;
        properties?: Record<string, unknown>;
        required?: string[];
      };
      expect(p.type, d.function.name).toBe('object');
      expect(typeof p.properties, d.function.name).toBe('object');
      for (const req of p.required ?? [])
        expect(p.properties, `${d.function.name}.${req}`).toHaveProperty(req);
    }
  });

  it('is plain JSON (what goes on the wire equals what is offered)', () => {
    const wire = JSON.parse(JSON.stringify(defs));
    expect(wire).toEqual(defs);
    const text = JSON.stringify(defs);
    expect(text).not.toContain('[Kind]');
  });

  it('required parameters match the documented table', () => {
    const req = Object.fromEntries(
      defs.map((d) => [
        d.function.name,
        [...((d.function.parameters as { required?: string[] }).required ?? [])].sort(),
      ]),
    );
    expect(req.create_manifest).toEqual(['manifest']);
    expect(req.delete_manifest).toEqual(['id']);
    expect(req.patch_manifest).toEqual(['id', 'patch']);
    expect(req.write_manifest_data).toEqual(['data', 'id']);
    expect(req.read_manifest_rows).toEqual(['id']);
    expect(req.update_row).toEqual(['changes', 'id', 'path']);
    expect(req.remove_row).toEqual(['id', 'path']);
    expect(req.reorder_rows).toEqual(['id', 'key', 'order']);
    expect(req.set_notification).toEqual(['body', 'card_id', 'label', 'title', 'trigger']);
    expect(req.read_doc).toEqual(['path']);
    expect(req.read_report).toEqual(['name']);
    expect(req.note_feedback).toEqual(['intent', 'kind']);
    expect(req.list_manifests).toEqual([]);
    expect(req.get_recent_activity).toEqual([]);
    expect(req.hygiene_scan).toEqual([]);
  });
});
