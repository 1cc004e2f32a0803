/**
 * A card file written by hand whose input settings are written as text ("min": "60",
 * "max": "250", "step": "0.1", "default": "70.5", "required": "true", "rows": "4", an emoji
 * picker's "emitIndex": "true", a checkbox's "default": "True") is read with
 * those settings, as the same card written with numbers and booleans: the entry form's check
 * refuses a systolic of 2500 and an entry without the required value, nothing is reported on the
 * card, and the file stays as written. Before, such settings were listed as unusable and ignored:
 * any number was stored and the required field could be left empty.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { todayIn } from '../../src/common/dates.js';
import { startServer, type TestServer } from '../helpers/server.js';

const TZ = 'Europe/Berlin';
let s: TestServer;
let file: string;

const HAND_WRITTEN = {
  $schema: 'klebb.datafile.v1',
  meta: {
    id: 'home-bp',
    label: 'Home blood pressure',
    view: { enabled: true, component: 'generic-card', display: { template: '{systolic}/{diastolic}' } },
    writeable: {
      fromWebapp: true,
      inputs: [
        {
          key: 'systolic',
          type: 'number',
          label: 'Systolic',
          min: '60',
          max: '250',
          step: '1',
          required: 'true',
        },
        { key: 'diastolic', type: 'number', label: 'Diastolic', min: '30', max: '150', required: 'TRUE' },
        { key: 'weight', type: 'number', label: 'Weight', step: '0.1', default: '70.5', min: '.5' },
        { key: 'note', type: 'textarea', label: 'Note', rows: '4', maxLength: '200' },
        {
          key: 'mood',
          type: 'emoji-picker',
          label: 'Mood',
          emojis: ['😞', '😐', '🙂'],
          emitIndex: 'true',
          autoSubmit: 'false',
        },
        { key: 'meds', type: 'checkbox', label: 'Took meds', default: 'True' },
      ],
    },
  },
  data: [],
};

beforeAll(async () => {
  s = await startServer({
    before: (_home, dataDir) => {
      fs.mkdirSync(dataDir, { recursive: true });
      file = path.join(dataDir, 'home-bp.json');
      fs.writeFileSync(file, `${JSON.stringify(HAND_WRITTEN, null, 2)}\n`);
    },
  });
  expect((await s.api('/api/user/tz', { json: { tz: TZ } })).status).toBe(200);
});
afterAll(async () => {
  await s?.close();
});

const entry = (e: Record<string, unknown>) =>
  s.api('/api/manifests/home-bp/entries', { json: { entry: { date: todayIn(TZ), ...e } } });

describe('input settings written as text in a hand-written card', () => {
  it('are read: nothing is reported and the card shows them as numbers and booleans', async () => {
    const list = await s.api('/api/manifests');
    expect(list.body.errors.filter((e: { id?: string }) => e.id === 'home-bp')).toEqual([]);
    const inputs = (await s.api('/api/manifests/home-bp')).body.meta.writeable.inputs;
    expect(inputs[0]).toMatchObject({ min: 60, max: 250, step: 1, required: true });
    expect(inputs[1]).toMatchObject({ min: 30, max: 150, required: true });
    expect(inputs[2]).toMatchObject({ step: 0.1, default: 70.5, min: 0.5 });
    expect(inputs[3]).toMatchObject({ rows: 4, maxLength: 200 });
    expect(inputs[4]).toMatchObject({ emitIndex: true, autoSubmit: false });
    expect(inputs[5]).toMatchObject({ default: true });
  });

  it('bound what an entry may hold, and require what they say is required', async () => {
    const high = await entry({ systolic: 2500, diastolic: 80 });
    expect(high.status, high.text).toBe(422);
    expect(high.text).toContain('body.entry.systolic');
    const missing = await entry({ systolic: 120 });
    expect(missing.status, missing.text).toBe(422);
    expect(missing.text).toContain('body.entry.diastolic');
    expect((await s.api('/api/manifests/home-bp/data')).body.data).toEqual([]);
    const ok = await entry({ systolic: 121, diastolic: 79 });
    expect(ok.status, ok.text).toBe(201);
    expect((await s.api('/api/manifests/home-bp/data')).body.data).toEqual([
      expect.objectContaining({ systolic: 121, diastolic: 79 }),
    ]);
  });

  it('the file keeps its settings as written', () => {
    const onDisk = JSON.parse(fs.readFileSync(file, 'utf8'));
    expect(onDisk.meta.writeable.inputs[0]).toMatchObject({ min: '60', required: 'true' });
  });
});
