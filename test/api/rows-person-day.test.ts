/**
 * The rows API written by a person (the web app, the local browser): a row at the top of a dated
 * card has its date checked as the entry forms and the chat's row tools check it. A day after the
 * person's today (in their zone, or the zone the request names) is 422 DATE_NOT_ALLOWED unless the
 * card takes future days; a date not in the calendar is 422 INVALID_ENTRY; nothing changes. Agents
 * with a token are not bound (they back-fill and plan for the owner), and rows inside a row (a
 * dose's check-off) are not dated rows of the card.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { addDays, todayIn } from '../../src/common/dates.js';
import { type ApiInit, startServer, type TestServer } from '../helpers/server.js';

const T = 'rows-person-token';
const ZONE = 'America/Los_Angeles';
let s: TestServer;
let today: string;

/** A person: no credentials, from this machine. */
const person = (p: string, init: ApiInit = {}) => s.api(p, init);
/** An agent with the bearer token. */
const agent = (p: string, init: ApiInit = {}) => s.api(p, { token: T, ...init });
const rows = async () => (await agent('/api/manifests/d/data')).body.data;

async function fresh(writeable: Record<string, unknown> = {}) {
  today = todayIn(ZONE);
  await agent('/api/manifests/d', { method: 'DELETE' });
  const r = await agent('/api/manifests', {
    json: {
      $schema: 'klebb.datafile.v1',
      meta: {
        id: 'd',
        label: 'D',
        view: { component: 'generic-card' },
        writeable: { fromWebapp: true, ...writeable },
      },
      data: [{ date: addDays(today, -1), kg: 1 }],
    },
  });
  expect(r.status, r.text).toBe(201);
}

beforeAll(async () => {
  s = await startServer({ env: { AGENT_API_TOKEN: T } });
  expect((await person('/api/user/tz', { json: { tz: ZONE } })).status).toBe(200);
});
afterAll(async () => {
  await s?.close();
});

describe('POST /api/manifests/:id/rows by a person', () => {
  beforeEach(async () => {
    await fresh();
  });

  it("refuses the person's tomorrow with 422 DATE_NOT_ALLOWED naming the date; nothing changes", async () => {
    const before = await rows();
    const r = await person('/api/manifests/d/rows', {
      json: { path: '', value: { date: addDays(today, 1), kg: 2 } },
    });
    expect(r.status, r.text).toBe(422);
    expect(r.body.code).toBe('DATE_NOT_ALLOWED');
    expect(JSON.stringify(r.body.details)).toContain('date');
    expect(await rows()).toEqual(before);
  });

  it("refuses an instant that is tomorrow in the person's zone", async () => {
    // noon UTC tomorrow is tomorrow morning in Los Angeles
    const r = await person('/api/manifests/d/rows', {
      json: { path: '', value: { date: `${addDays(today, 1)}T12:00Z`, kg: 2 } },
    });
    expect(r.status).toBe(422);
    expect(r.body.code).toBe('DATE_NOT_ALLOWED');
  });

  it("takes an instant written as tomorrow in UTC that is still today in the person's zone", async () => {
    // 03:30 UTC tomorrow is this evening in Los Angeles
    const r = await person('/api/manifests/d/rows', {
      json: { path: '', value: { date: `${addDays(today, 1)}T03:30Z`, kg: 2 } },
    });
    expect(r.status, r.text).toBe(201);
  });

  it("reads today in the zone the request names (the device's own)", async () => {
    // Kiritimati (UTC+14) is 21 or 22 hours ahead of Los Angeles: its today is mostly the stored
    // zone's tomorrow, which the header makes the device's today
    const ahead = todayIn('Pacific/Kiritimati');
    const r = await person('/api/manifests/d/rows', {
      json: { path: '', value: { date: ahead, kg: 2 } },
      headers: { 'x-klebb-time-zone': 'Pacific/Kiritimati' },
    });
    expect(r.status, r.text).toBe(201);
    const bad = await person('/api/manifests/d/rows', {
      json: { path: '', value: { date: today, kg: 2 } },
      headers: { 'x-klebb-time-zone': 'Mars/Olympus' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.details[0].path).toBe('headers.x-klebb-time-zone');
  });

  it('takes today and earlier days', async () => {
    expect(
      (await person('/api/manifests/d/rows', { json: { path: '', value: { date: today, kg: 2 } } })).status,
    ).toBe(201);
    const past = await person('/api/manifests/d/rows', {
      json: { path: '', value: { date: addDays(today, -30), kg: 2 } },
    });
    expect(past.status).toBe(201);
  });

  it('refuses a date that is not in the calendar with 422 INVALID_ENTRY', async () => {
    const r = await person('/api/manifests/d/rows', {
      json: { path: '', value: { date: '2026-02-30', kg: 2 } },
    });
    expect(r.status).toBe(422);
    expect(r.body.code).toBe('INVALID_ENTRY');
  });

  it('an agent with a token is not bound', async () => {
    const r = await agent('/api/manifests/d/rows', {
      json: { path: '', value: { date: addDays(today, 5), kg: 2 } },
    });
    expect(r.status, r.text).toBe(201);
  });
});

it('PATCH refuses moving a row to a future day; other fields still change', async () => {
  await fresh();
  const path = `[date="${addDays(today, -1)}"]`;
  const r = await person('/api/manifests/d/rows', {
    method: 'PATCH',
    json: { path, changes: { date: `${addDays(today, 2)}T08:00-07:00` } },
  });
  expect(r.status).toBe(422);
  expect(r.body.code).toBe('DATE_NOT_ALLOWED');
  expect((await rows())[0].date).toBe(addDays(today, -1));
  const ok = await person('/api/manifests/d/rows', { method: 'PATCH', json: { path, changes: { kg: 3 } } });
  expect(ok.status, ok.text).toBe(200);
});

it('a card that takes future days takes them from a person too', async () => {
  await fresh({ futureAllowed: true });
  const r = await person('/api/manifests/d/rows', {
    json: { path: '', value: { date: addDays(today, 3), kg: 2 } },
  });
  expect(r.status, r.text).toBe(201);
});
