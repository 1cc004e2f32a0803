/**
 * Numbers written as text the way a phone set to a decimal-comma region writes them, through the
 * real webhook and the real Apple Health upload: `72,5` is 72.5 on its day, a re-send adds nothing,
 * and `12,345` (12.345 or 12345: the text cannot tell) is left out with a warning naming it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type IngestServer, startIngestServer } from './helpers.js';

let srv: IngestServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

const CARDS: [string, string][] = [
  ['weight', 'weight_body_mass'],
  ['resting', 'resting_heart_rate'],
  ['steps', 'step_count'],
];

const push = {
  data: {
    metrics: [
      {
        name: 'weight_body_mass',
        units: 'kg',
        data: [{ date: '2026-02-03 07:12:00 +0100', qty: '72,5', source: 'Waage' }],
      },
      {
        name: 'resting_heart_rate',
        units: 'count/min',
        data: [
          { date: '2026-02-03 00:00:00 +0100', qty: '62,45454545454545', source: 'Apple Watch von Kim' },
        ],
      },
      {
        name: 'step_count',
        units: 'count',
        data: [
          { date: '2026-02-03 00:00:00 +0100', qty: '12,345', source: 'iPhone von Kim' },
          { date: '2026-02-04 00:00:00 +0100', qty: '9.876,0', source: 'iPhone von Kim' },
        ],
      },
    ],
  },
};

describe('numbers written with a decimal comma', () => {
  it('a push reads them, warns of the one it cannot tell, and a re-send adds nothing', async () => {
    srv = await startIngestServer({ cards: CARDS });
    const r = await srv.push(JSON.stringify(push));
    expect(r.status).toBe(200);
    expect(r.body.warnings).toEqual([
      'step_count: number whose comma or point may be a decimal or a thousands mark (1 point, e.g. "12,345")',
    ]);
    expect(r.body.samples).toEqual({ received: 3, new: 3 });
    expect(await srv.rows('weight')).toEqual([{ date: '2026-02-03', kg: 72.5 }]);
    expect(await srv.rows('resting')).toEqual([{ date: '2026-02-03', bpm: 62.5 }]);
    expect(await srv.rows('steps')).toEqual([{ date: '2026-02-04', count: 9876 }]);
    expect((await srv.push(JSON.stringify(push))).body.samples).toEqual({ received: 3, new: 0 });
  });

  it('a push in the phone’s own digits and marks reads them, the same samples as ASCII digits', async () => {
    srv = await startIngestServer({ cards: [...CARDS, ['wrist', 'apple_sleeping_wrist_temperature']] });
    const at = (day: number) => `2026-02-0${day} 07:00:00 +0300`;
    const own = {
      data: {
        metrics: [
          {
            name: 'weight_body_mass',
            units: 'kg',
            data: [
              { date: at(5), qty: '٧٢٫٥', source: 'ميزان' }, // Arabic-Indic digits, Arabic decimal mark
              { date: at(6), qty: '۷۱٫۹ kg', source: 'ميزان' }, // Persian digits, with the unit
            ],
          },
          {
            name: 'step_count',
            units: 'count',
            data: [
              { date: '2026-02-05 00:00:00 +0300', qty: '١٢٬٣٤٥', source: 'iPhone' }, // Arabic thousands mark
              { date: '2026-02-06 00:00:00 +0300', qty: '12\u202f345', source: 'iPhone' }, // narrow no-break space
            ],
          },
          {
            name: 'apple_sleeping_wrist_temperature',
            units: 'degC',
            data: [{ date: at(5), qty: '\u22120,3', source: 'Watch' }], // minus sign U+2212, decimal comma
          },
        ],
      },
    };
    const r = await srv.push(JSON.stringify(own));
    expect(r.status).toBe(200);
    expect(r.body.warnings).toBeUndefined();
    expect(r.body.samples).toEqual({ received: 5, new: 5 });
    expect(await srv.rows('weight')).toEqual([
      { date: '2026-02-05', kg: 72.5 },
      { date: '2026-02-06', kg: 71.9 },
    ]);
    expect(await srv.rows('steps')).toEqual([
      { date: '2026-02-05', count: 12345 },
      { date: '2026-02-06', count: 12345 },
    ]);
    expect(await srv.rows('wrist')).toEqual([{ date: '2026-02-05', degC: -0.3 }]);
    // the same values in ASCII digits are the same samples
    const ascii = JSON.parse(
      JSON.stringify(own)
        .replace('٧٢٫٥', '72.5')
        .replace('۷۱٫۹ kg', '71.9')
        .replace('١٢٬٣٤٥', '12345')
        .replace('12\u202f345', '12345')
        .replace('\u22120,3', '-0.3'),
    );
    expect((await srv.push(JSON.stringify(ascii))).body.samples).toEqual({ received: 5, new: 0 });
  });

  it('an Apple Health export with a decimal comma in a value reads it', async () => {
    srv = await startIngestServer({ cards: CARDS });
    const xml = [
      '<?xml version="1.0" encoding="UTF-8"?>',
      '<HealthData locale="de_DE">',
      ' <Record type="HKQuantityTypeIdentifierBodyMass" sourceName="Waage" unit="kg" startDate="2026-02-05 07:10:00 +0100" endDate="2026-02-05 07:10:00 +0100" value="71,9"/>',
      '</HealthData>',
    ].join('\n');
    const r = await srv.importExport(xml);
    expect(r.status).toBe(200);
    expect(r.body.warnings).toEqual([]);
    expect(await srv.rows('weight')).toEqual([{ date: '2026-02-05', kg: 71.9 }]);
  });
});
