import fs from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';

// A row whose date is shaped like a day but names none (month 13, day 32, 9999-99-99: a typo
// let through with a warning, a hand edit, an import) sorts after every real date as text. The
// reads that take "the latest day" of a card must pass over it instead of failing: every GET
// route answers below 500, and the latest day they report is the latest real one.
const T = 'tok';
const IMPOSSIBLE = ['2026-13-01', '2026-12-32', '9999-99-99T08:00:00Z'];
const ODD_ROWS: unknown[] = [
  { date: 20261122, kg: 1 },
  { date: null },
  { date: { day: '2026-11-22' } },
  { date: '2026-11-22T25:00' },
  { date: '2026-11-30 and then some' },
  { date: '' },
  {},
  'a note, not a row',
  42,
  null,
  [],
];

function card(id: string, extra: Record<string, unknown>): string {
  return JSON.stringify({
    $schema: 'klebb.datafile.v1',
    meta: { id, label: id, ...extra },
    description: `${id} with an impossible date`,
    data: [
      { date: '2026-11-20', kg: 80 },
      { date: '2026-11-21', kg: 80.4 },
      ...IMPOSSIBLE.map((date) => ({ date, kg: 81 })),
      // rows of other odd shapes a hand edit leaves, read past the same way
      ...ODD_ROWS,
    ],
  });
}

let s: TestServer;
beforeAll(async () => {
  s = await startServer({
    env: { AGENT_API_TOKEN: T },
    before: (_home, dataDir) => {
      fs.mkdirSync(dataDir, { recursive: true });
      fs.writeFileSync(
        path.join(dataDir, 'scale.json'),
        card('scale', {
          ingest: { source: 'hae', metric: 'weight_body_mass' },
          writeable: { fromWebapp: false },
        }),
      );
      fs.writeFileSync(
        path.join(dataDir, 'kg.json'),
        card('kg', {
          writeable: {
            fromWebapp: true,
            inputs: [
              { key: 'date', label: 'Date', type: 'date', required: true },
              { key: 'kg', label: 'kg', type: 'number', required: true },
            ],
          },
        }),
      );
    },
  });
});
afterAll(async () => {
  await s.close();
});

describe('a card holding a row with an impossible date', () => {
  it('every GET route answers below 500', async () => {
    const failures: string[] = [];
    for (const r of s.app.routeTable) {
      if (r.method !== 'GET' || r.url.includes('*')) continue;
      const url = r.url.replace(/:[A-Za-z]+/g, (p) => (p === ':name' ? 'x' : 'kg'));
      // the status only: an event stream's body never ends
      const res = await fetch(`${s.url}${url}`, { headers: { authorization: `Bearer ${T}` } });
      if (res.status >= 500) failures.push(`${url} ${res.status} ${(await res.text()).slice(0, 120)}`);
      else await res.body?.cancel();
    }
    expect(failures).toEqual([]);
  });

  it('the phone-fed cards list names the latest real day', async () => {
    const res = await s.api('/api/health-auto-export/cards', { token: T });
    expect(res.status).toBe(200);
    const scale = res.body.cards.find((c: { id: string }) => c.id === 'scale');
    expect(scale.latestDate).toBe('2026-11-21');
  });

  it('the hygiene scan answers, and MCP tools read the latest real day', async () => {
    expect((await s.api('/api/hygiene', { token: T })).status).toBe(200);
    const client = new Client({ name: 'test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${T}` } },
      }),
    );
    try {
      for (const name of ['hygiene_scan', 'get_recent_activity']) {
        const r = await client.callTool({ name, arguments: {} });
        const text = (r.content as { text: string }[])[0].text;
        expect(r.isError, `${name}: ${text}`).toBeFalsy();
        expect(text).not.toMatch(/Invalid time value/);
        if (name === 'get_recent_activity') expect(text).toContain('2026-11-21');
      }
    } finally {
      await client.close();
    }
  });
});
