/**
 * Pushes from phones set to another calendar, digit set or 12-hour clock language, through the
 * real webhook: a Thai Buddhist year, Arabic-Indic, Persian and Devanagari digits and an Arabic
 * afternoon word are read on the Gregorian day and hour they name (the same points sent later as
 * the app writes them on a Gregorian phone add nothing); a Japanese era year, a Persian or
 * Islamic year and a day-half word not known are left out, each counted in a warning saying why,
 * and the push is still answered 200 with the rest stored.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type IngestServer, startIngestServer } from './helpers.js';

let srv: IngestServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

const weights = (points: [string, number][]) =>
  JSON.stringify({
    data: {
      metrics: [
        {
          name: 'weight_body_mass',
          units: 'kg',
          data: points.map(([date, qty]) => ({ date, qty, source: 'Scale' })),
        },
      ],
    },
  });

describe('stamps of phones set to another calendar or digit set', () => {
  it('are read on the Gregorian day they name; what cannot be read one way is refused, saying why', async () => {
    srv = await startIngestServer({ cards: [['weight', 'weight_body_mass']] });
    const r = await srv.push(
      weights([
        ['2569-04-06 07:00:00 +0700', 70.1], // Thai Buddhist year
        ['٢٠٢٦-٠٤-٠٧ ٠٧:٠٠:٠٠ +٠٣٠٠', 70.2], // Arabic-Indic digits
        ['۲۰۲۶-۰۴-۰۸ ۷:۰۰:۰۰ ب.ظ. +۰۳۳۰', 70.3], // Persian digits, 7 p.m.
        ['२०२६-०४-०९ ०७:००:०० +०५३०', 70.4], // Devanagari
        ['\u200f٢٠٢٦-٠٤-١٠ ٧:٠٠:٠٠ م \u200f+٠٣٠٠', 70.5], // right-to-left marks, 7 p.m.
        ['0008-04-11 07:00:00 +0900', 70.6], // Japanese era year
        ['1405-01-22 07:00:00 +0330', 70.7], // Persian year
        ['1447-10-20 07:00:00 +0300', 70.8], // Islamic year
        ['2026-04-12 7:00:00 xyz +0300', 70.9], // a day-half word not known
      ]),
    );
    expect(r.status).toBe(200);
    expect(r.body.ok).toBe(true);
    expect(r.body.samples).toEqual({ received: 5, new: 5 });
    expect(r.body.warnings).toEqual([
      'weight_body_mass: date before 1900-01-01: a year below 100 is a date never set or a year of a Japanese era (Reiwa 8 is 2026, Heisei 8 was 1996), which cannot be told apart; set the phone to the Gregorian calendar (1 point, e.g. "0008-04-11 07:00:00 +0900")',
      'weight_body_mass: date before 1900-01-01: a year of the Persian or the Islamic calendar, which cannot be told apart; set the phone to the Gregorian calendar (2 points, e.g. "1405-01-22 07:00:00 +0330")',
      'weight_body_mass: unreadable timestamp: a 12-hour time with a morning or afternoon word Klebb does not know; set the phone to a 24-hour clock (1 point, e.g. "2026-04-12 7:00:00 xyz +0300")',
    ]);
    expect(await srv.rows('weight')).toEqual([
      { date: '2026-04-06', kg: 70.1 },
      { date: '2026-04-07', kg: 70.2 },
      { date: '2026-04-08', kg: 70.3 },
      { date: '2026-04-09', kg: 70.4 },
      { date: '2026-04-10', kg: 70.5 },
    ]);
    // the same points as a phone on the Gregorian calendar with Western digits writes them
    const again = await srv.push(
      weights([
        ['2026-04-06 07:00:00 +0700', 70.1],
        ['2026-04-07 07:00:00 +0300', 70.2],
        ['2026-04-08 19:00:00 +0330', 70.3],
        ['2026-04-09 07:00:00 +0530', 70.4],
        ['2026-04-10 19:00:00 +0300', 70.5],
      ]),
    );
    expect(again.body.samples).toEqual({ received: 5, new: 0 });
  });
});
