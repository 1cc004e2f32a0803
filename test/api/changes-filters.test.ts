/**
 * `GET /api/changes` filters: a value that could never match (a card id with a path separator or
 * a control character, an actor of no kind the server records, a kind that takes nothing after
 * ":" given something, a kind with nothing after ":") is 400 naming the filter, never an empty
 * page that reads as "nothing happened"; a well-formed value that matches nothing is an empty page.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';

const T = 'changes-filters-token';
let s: TestServer;
const changes = (q: string) => s.api(`/api/changes?${q}`, { token: T });

beforeAll(async () => {
  s = await startServer({ env: { AGENT_API_TOKEN: T } });
  const r = await s.api('/api/manifests', {
    token: T,
    json: {
      $schema: 'klebb.datafile.v1',
      meta: { id: 'w', label: 'W' },
      data: [{ date: '2026-04-01', kg: 80 }],
    },
  });
  expect(r.status).toBe(201);
});
afterAll(async () => {
  await s.close();
});

describe('GET /api/changes filters', () => {
  it('refuses values that cannot be a card id or an actor, naming the filter', async () => {
    const bad: [string, string][] = [
      ['card=../w', 'query.card'],
      ['card=a%2Fb', 'query.card'],
      ['card=a%5Cb', 'query.card'],
      ['card=.hidden', 'query.card'],
      ['card=w%00', 'query.card'],
      [`card=${'a'.repeat(256)}`, 'query.card'],
      ['actor=nobody', 'query.actor'],
      ['actor=Web', 'query.actor'],
      ['actor=web:x', 'query.actor'],
      ['actor=hae:phone', 'query.actor'],
      ['actor=chat:', 'query.actor'],
      ['actor=token:', 'query.actor'],
      ['actor=%00', 'query.actor'],
    ];
    for (const [q, at] of bad) {
      const r = await changes(q);
      expect(r.status, `${q.slice(0, 40)}: ${r.text}`).toBe(400);
      expect(r.body.details, q.slice(0, 40)).toEqual([{ path: at, message: expect.any(String) }]);
    }
  });

  it('takes every kind of actor and any card id, and finds what matches', async () => {
    for (const q of [
      'actor=web',
      'actor=agent-token',
      'actor=token',
      'actor=token:phone',
      'actor=chat',
      'actor=chat:c1/t1',
      'actor=mcp:stdio',
      'actor=hae',
      'actor=import',
      'actor=file',
      'actor=local',
      'actor=system',
      'card=gone-long-ago',
      'card=Weight%20Log',
    ]) {
      const r = await changes(q);
      expect(r.status, `${q}: ${r.text}`).toBe(200);
    }
    const mine = await changes('card=w&actor=agent-token');
    expect(mine.body.changeSets.length).toBeGreaterThan(0);
  });
});
