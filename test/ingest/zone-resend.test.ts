/**
 * A pushed point whose metadata names the zone it was recorded in, sent again naming another zone
 * (a correction, a phone that learnt where it was): through the real webhook, the sample moves to
 * the day of the zone named last instead of being counted on both days, and a day it leaves with
 * no other sample loses the row the phone wrote there (a row entered by hand stays).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { haeCard, type IngestServer, startIngestServer } from './helpers.js';

let srv: IngestServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

/** 500 steps written on New York's clock at 12:30 on 10 June: 01:30 on 11 June in Tokyo, 22:00 on 10 June in Kolkata. */
function walk(zone: string) {
  return { date: '2024-06-10 12:30:00 -0400', qty: 500, source: 'Watch', metadata: { HKTimeZone: zone } };
}

/** A night of core sleep written on New York's clock, slept where `zone` says. */
function night(zone: string) {
  return {
    startDate: '2024-06-10 10:00:00 -0400',
    endDate: '2024-06-10 14:00:00 -0400',
    value: 'Core',
    source: 'Watch',
    metadata: { HKTimeZone: zone },
  };
}

/** The push: the walk and the night where `zone` says, another walk at home, and `more` points. */
function body(zone: string, more: Record<string, unknown>[] = []): string {
  return JSON.stringify({
    data: {
      metrics: [
        {
          name: 'step_count',
          units: 'count',
          data: [{ date: '2024-06-12 08:00:00 -0400', qty: 100, source: 'Watch' }, walk(zone), ...more],
        },
        { name: 'sleep_analysis', units: 'hr', data: [night(zone)] },
      ],
    },
  });
}

function storedDates(s: IngestServer, metric: string): string[] {
  return s.inst.db
    .prepare('SELECT date FROM hae_samples WHERE metric = ? ORDER BY date')
    .pluck()
    .all(metric) as string[];
}

describe('a point sent again naming another zone', () => {
  it('moves to the day of the zone named last, its row with it', async () => {
    srv = await startIngestServer({
      cards: [
        ['steps', 'step_count'],
        ['sleep', 'sleep_analysis'],
      ],
    });
    let r = await srv.push(body('Asia/Tokyo'));
    expect(r.status, r.text).toBe(200);
    expect(await srv.rows('steps')).toEqual([
      { date: '2024-06-11', count: 500 },
      { date: '2024-06-12', count: 100 },
    ]);
    expect(await srv.rows('sleep')).toMatchObject([{ date: '2024-06-11', hours: 4, bedTime: '23:00' }]);

    r = await srv.push(body('Asia/Kolkata'));
    expect(r.status, r.text).toBe(200);
    expect(storedDates(srv, 'step_count')).toEqual(['2024-06-10', '2024-06-12']);
    expect(await srv.rows('steps')).toEqual([
      { date: '2024-06-10', count: 500 },
      { date: '2024-06-12', count: 100 },
    ]);
    expect(storedDates(srv, 'sleep_analysis')).toEqual(['2024-06-10']);
    expect(await srv.rows('sleep')).toMatchObject([{ date: '2024-06-10', hours: 4, bedTime: '19:30' }]);

    // and back: named as written (New York), then Tokyo again (with a new reading beside it: the
    // very bytes of the first push are answered from memory, as they hold nothing new)
    await srv.push(body('America/New_York'));
    expect(storedDates(srv, 'step_count')).toEqual(['2024-06-10', '2024-06-12']);
    await srv.push(body('Asia/Tokyo', [{ date: '2024-06-13 08:00:00 -0400', qty: 7, source: 'Watch' }]));
    expect(storedDates(srv, 'step_count')).toEqual(['2024-06-11', '2024-06-12', '2024-06-13']);
    expect(await srv.rows('steps')).toEqual([
      { date: '2024-06-11', count: 500 },
      { date: '2024-06-12', count: 100 },
      { date: '2024-06-13', count: 7 },
    ]);
    expect(storedDates(srv, 'sleep_analysis')).toEqual(['2024-06-11']);
    expect(await srv.rows('sleep')).toMatchObject([{ date: '2024-06-11', hours: 4, bedTime: '23:00' }]);
  });

  it('a row entered by hand on the day it leaves stays', async () => {
    srv = await startIngestServer();
    await srv.createCard(haeCard('steps', 'step_count', { writeable: { fromWebapp: true } }));
    await srv.push(body('Asia/Tokyo'));
    // the person's own figure for the day, in place of the phone's
    const put = await srv.api('/api/manifests/steps/data', {
      json: {
        data: [
          { date: '2024-06-11', count: 9000 },
          { date: '2024-06-12', count: 100 },
        ],
      },
    });
    expect(put.status, put.text).toBe(200);
    await srv.push(body('Asia/Kolkata'));
    expect(await srv.rows('steps')).toEqual([
      { date: '2024-06-10', count: 500 },
      { date: '2024-06-11', count: 9000 },
      { date: '2024-06-12', count: 100 },
    ]);
  });
});
