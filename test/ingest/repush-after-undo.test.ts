/**
 * A Health Auto Export push undone by mistake, then sent again from the phone: undo takes the
 * push's rows off the card but its samples stay stored, and the re-send is answered from memos
 * (the whole body's, or each block's) without being read again. The days it offers that the card
 * has no row for must come back all the same; a day with a row keeps it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type IngestServer, startIngestServer } from './helpers.js';

let srv: IngestServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

/** A step_count body: 100 steps at 08:00 and 09:00 on each of `days` days from 1 March 2024. */
function stepsBody(days: number): Buffer {
  const data = [];
  for (let d = 1; d <= days; d++) {
    for (const h of ['08', '09']) {
      data.push({ date: `2024-03-0${d} ${h}:00:00 +0000`, qty: 100, source: 'iPhone' });
    }
  }
  return Buffer.from(JSON.stringify({ data: { metrics: [{ name: 'step_count', units: 'count', data }] } }));
}

/** The same payload in other bytes (pretty-printed): its blocks' memos match, the body's does not. */
const respelled = (body: Buffer) => Buffer.from(JSON.stringify(JSON.parse(body.toString('utf8')), null, 2));

/** Undoes the newest change set of Health Auto Export. */
async function undoNewestPush(s: IngestServer): Promise<void> {
  const list = await s.api('/api/changes?actor=hae');
  const set = list.body.changeSets[0];
  expect(set.actor).toBe('hae');
  const undo = await s.api(`/api/changes/${set.id}/undo`, { method: 'POST' });
  expect(undo.status).toBe(200);
}

const threeDays = [1, 2, 3].map((d) => ({ date: `2024-03-0${d}` }));

describe('a push sent again after it was undone', () => {
  it('puts its days back when the same bytes come again (answered from the body memo)', async () => {
    srv = await startIngestServer({ cards: [['steps', 'step_count']] });
    const body = stepsBody(3);
    expect((await srv.push(body)).body).toMatchObject({ ok: true, ingested: { steps: 3 } });
    await undoNewestPush(srv);
    expect(await srv.rows('steps')).toEqual([]);

    const again = await srv.push(body);
    expect(again.body).toMatchObject({ ok: true, ingested: { steps: 3 }, samples: { new: 0 } });
    expect(await srv.rows('steps')).toMatchObject(threeDays);
    // a third time: every day has its row, nothing is written
    expect((await srv.push(body)).body).toMatchObject({ ok: true, ingested: { steps: 0 } });
  });

  it('puts its days back when the same blocks come in other bytes (block memos)', async () => {
    srv = await startIngestServer({ cards: [['steps', 'step_count']] });
    const body = stepsBody(3);
    expect((await srv.push(body)).status).toBe(200);
    await undoNewestPush(srv);
    expect(await srv.rows('steps')).toEqual([]);

    const again = await srv.push(respelled(body));
    expect(again.body).toMatchObject({ ok: true, ingested: { steps: 3 }, samples: { new: 0 } });
    expect(await srv.rows('steps')).toMatchObject(threeDays);
  });

  it('keeps a row the card has for one of those days and fills the new days of a longer push', async () => {
    srv = await startIngestServer({ cards: [['steps', 'step_count']] });
    expect((await srv.push(stepsBody(2))).status).toBe(200);
    await undoNewestPush(srv);
    // a row for one of those days meanwhile (the card is read-only over the API: through the store)
    srv.inst.cards.store.append('steps', [], '', { date: '2024-03-02', count: 4321 }, 'file');

    const again = await srv.push(stepsBody(4));
    expect(again.body).toMatchObject({ ok: true, samples: { new: 4 } });
    const rows = await srv.rows('steps');
    expect(rows.map((r) => r.date)).toEqual(['2024-03-01', '2024-03-02', '2024-03-03', '2024-03-04']);
    expect(rows[1]).toEqual({ date: '2024-03-02', count: 4321 });
    expect(rows[0].count).toBe(200);
  });
});
