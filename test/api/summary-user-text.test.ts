/**
 * A card's label or a row's value placed inside a sentence we build (History and undo summaries,
 * approval requests, form errors) cannot reorder or break the sentence: directional overrides,
 * embeddings, isolates and marks are taken out and such text is wrapped in FSI…PDI; newlines and
 * other control characters become a space.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolateText } from '../../src/common/isolate-text.js';
import { manifest, type ToolEnv, toolEnv } from '../tools/harness.js';

const T = 'bidi-token';
let t: ToolEnv;
const api = (path: string, init: Record<string, unknown> = {}) => t.s.api(path, { token: T, ...init });

/** Any raw directional control or control character that would escape an isolate. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: these are what must not appear
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066\u2067\u2028\u2029]/;
const FSI = '\u2068';
const PDI = '\u2069';

/** Every FSI is closed by a PDI and nothing else opens or closes a direction. */
function balanced(s: string): boolean {
  let depth = 0;
  for (const ch of s) {
    if (ch === FSI) depth++;
    if (ch === PDI && --depth < 0) return false;
  }
  return depth === 0 && !UNSAFE.test(s);
}

/** A label with an override and a newline: refused on create, so it comes from a hand-written file. */
const HAND_LABEL = 'Weight\u202E kg\nsecond line';

const ASKED_LABEL = '\u202Eevil\u2069 label';
const FORM_META = {
  writeable: {
    fromWebapp: true,
    todayAllowed: true,
    pastAllowed: true,
    inputs: [{ key: 'kg', label: 'Kilo\u202Egrams', type: 'number', max: 10 }],
  },
};

beforeAll(async () => {
  t = await toolEnv({
    env: { AGENT_API_TOKEN: T },
    before: (_home, dataDir) => {
      fs.mkdirSync(dataDir, { recursive: true });
      fs.writeFileSync(
        path.join(dataDir, 'bidi.json'),
        JSON.stringify(manifest('bidi', [], { label: HAND_LABEL })),
      );
      // labels with overrides are refused on create: these come from hand-written files too
      fs.writeFileSync(
        path.join(dataDir, 'asked.json'),
        JSON.stringify(manifest('asked', [{ date: '2026-04-20', v: 1 }], { label: ASKED_LABEL })),
      );
      fs.writeFileSync(path.join(dataDir, 'form.json'), JSON.stringify(manifest('form', [], FORM_META)));
    },
  });
});
afterAll(async () => {
  await t.close();
});

describe('isolateText', () => {
  it.each([
    ['Weight\u202E gk', `${FSI}Weight gk${PDI}`],
    ['\u2066Sleep\u2069\u2069', `${FSI}Sleep${PDI}`],
    ['Mood\u200F', `${FSI}Mood${PDI}`],
    ['Blood\npressure\r\n', 'Blood pressure'],
    ['tab\there', 'tab here'],
    ['משקל', `${FSI}משקל${PDI}`],
    ['Weight', 'Weight'],
  ])('%j → %j', (text, want) => {
    expect(isolateText(text)).toBe(want);
  });
});

describe('change summaries', () => {
  it('History lists a label with an override and a newline isolated, on one line', async () => {
    expect((await api('/api/manifests/bidi')).body.meta.label).toBe(HAND_LABEL);
    expect(
      (await api('/api/manifests/bidi/rows', { json: { value: { date: '2026-04-20', kg: 1 } } })).status,
    ).toBe(201);
    const sets = (await api('/api/changes')).body.changeSets as { id: number; summary: string }[];
    const added = sets.find((x) => x.summary.startsWith('Added 1 row to'));
    expect(added?.summary).toBe(`Added 1 row to ${FSI}Weight kg second line${PDI}`);
    for (const set of sets) expect(balanced(set.summary), JSON.stringify(set.summary)).toBe(true);
    // the undo answers with the same words
    const undo = await api(`/api/changes/${added?.id}/undo`, { method: 'POST' });
    expect(undo.status).toBe(200);
    expect(balanced(JSON.stringify(undo.body).replace(/\\u2068|\\u2069/g, ''))).toBe(true);
    const after = (await api('/api/changes')).body.changeSets as { summary: string }[];
    for (const set of after) expect(balanced(set.summary), JSON.stringify(set.summary)).toBe(true);
  });

  it('an approval request isolates the label it names', async () => {
    const refused = await t.call('create_manifest', {
      manifest: manifest('asked-again', [], { label: ASKED_LABEL }),
    });
    expect(JSON.stringify(refused)).toContain('meta.label');
    expect((await api('/api/manifests/asked')).body.meta.label).toBe(ASKED_LABEL);
    t.asked.length = 0;
    await t.call('delete_manifest', { id: 'asked' });
    expect(t.asked[0]?.summary).toBe(`Delete the card “${FSI}evil label${PDI}” and its 1 row.`);
  });

  it('a form error names an input label without its override', async () => {
    expect((await api('/api/manifests', { json: manifest('form-again', [], FORM_META) })).status).toBe(400);
    const r = await api('/api/manifests/form/entries', { json: { entry: { date: '2026-04-20', kg: 99 } } });
    expect(r.status).toBe(422);
    expect(balanced(r.body.error)).toBe(true);
    expect(r.body.error).toContain(`${FSI}Kilograms${PDI}`);
  });
});
