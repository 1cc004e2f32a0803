/**
 * An export.xml of a newer iPhone (modern-export.ts: iOS 16's broken DTD, records of every kind
 * with attributes in other orders, offsets, comma decimals and Apple's units, correlations, sleep
 * stages, a workout whose totals are only in its statistics, elements Klebb does not read, control
 * characters) uploaded to the real server: every reading in it reaches its card once.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type IngestServer, startIngestServer } from './helpers.js';
import { expectModernCards, MODERN_CARDS, modernExport } from './modern-export.js';

let srv: IngestServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

describe('an export.xml of a newer iPhone', () => {
  it('gives every reading it holds, once, past its DTD, its other elements and its faults', async () => {
    const s = await startIngestServer({ cards: MODERN_CARDS });
    srv = s;
    const r = await s.importExport(modernExport());
    expect(r.status, r.text).toBe(200);
    // top-level records: 5 steps, 2 weights, 3 heart rates, HRV, oxygen, 2 glucose, 2 temperatures,
    // 2 pressure halves, 1 food, 6 + 1 sleep, the goal = 27 (those inside correlations are not counted)
    expect(r.body).toMatchObject({
      ok: true,
      records: 27,
      workouts: 1,
      truncated: false,
      damagedAtLine: null,
      // the control character in a source's name, the reference to one in a food's name
      xmlErrors: 2,
      exportDate: '2023-01-13 21:04:10 +0100',
      unmappedTypes: { HKDataTypeSleepDurationGoal: 1 },
    });
    await expectModernCards(s);
  });

  it('the same with a byte order mark and Windows line endings', async () => {
    const s = await startIngestServer({ cards: MODERN_CARDS });
    srv = s;
    const r = await s.importExport(modernExport('\r\n', '\ufeff'));
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({ ok: true, records: 27, workouts: 1, truncated: false });
    await expectModernCards(s);
  });
});
