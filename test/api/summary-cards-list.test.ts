/**
 * The doctor's summary takes the cards it lists as comma-separated ids: a card named twice is
 * listed once (where it is first named), spaces around an id are not part of it, and the order
 * given is kept.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';

let s: TestServer;

const card = (id: string) => ({
  $schema: 'klebb.datafile.v1',
  meta: { id, label: id, view: { enabled: true, component: 'generic-card' } },
  data: [{ date: '2026-04-06', kg: 80 }],
});

beforeAll(async () => {
  s = await startServer();
  for (const id of ['w1', 'w2']) expect((await s.api('/api/manifests', { json: card(id) })).status).toBe(201);
});
afterAll(async () => {
  await s?.close();
});

const listed = async (cards: string) => {
  const r = await s.api(`/api/summary?from=2026-04-01&to=2026-04-30&cards=${encodeURIComponent(cards)}`);
  expect(r.status, r.text).toBe(200);
  return r.body.cards.map((c: { id: string; total: number }) => `${c.id}:${c.total}`);
};

it.each([
  ['w2,w2', ['w2:1']],
  ['w2,w1,w2', ['w2:1', 'w1:1']],
  ['w2, w2 ,w1', ['w2:1', 'w1:1']],
  ['w1,,w1,', ['w1:1']],
])('cards=%s lists each card once', async (cards, want) => {
  expect(await listed(cards)).toEqual(want);
});

it.each(['', ',', ' , ,'])(
  'cards=%j names no card: 400 naming query.cards, not an empty summary',
  async (cards) => {
    const r = await s.api(`/api/summary?from=2026-04-01&to=2026-04-30&cards=${encodeURIComponent(cards)}`);
    expect(r.status, r.text).toBe(400);
    expect(r.body.code).toBe('BAD_REQUEST');
    expect(r.body.details).toEqual([{ path: 'query.cards', message: 'names no card' }]);
  },
);

it('cards naming ids that are no cards: 404 naming every one of them', async () => {
  const r = await s.api('/api/summary?from=2026-04-01&to=2026-04-30&cards=w1,gone,w2,old-bp,gone');
  expect(r.status, r.text).toBe(404);
  expect(r.body.code).toBe('CARD_NOT_FOUND');
  expect(r.body.error).toBe('no cards with ids "gone", "old-bp"');
  expect(r.body.ids).toEqual(['gone', 'old-bp']);
  expect(r.body.id).toBe('gone');
  const one = await s.api('/api/summary?from=2026-04-01&to=2026-04-30&cards=w1,gone');
  expect(one.status).toBe(404);
  expect(one.body).toMatchObject({
    code: 'CARD_NOT_FOUND',
    id: 'gone',
    ids: ['gone'],
    error: 'no card with id "gone"',
  });
});

it('cards left out: every enabled card', async () => {
  const r = await s.api('/api/summary?from=2026-04-01&to=2026-04-30');
  expect(r.status).toBe(200);
  expect(r.body.cards.map((c: { id: string }) => c.id)).toEqual(expect.arrayContaining(['w1', 'w2']));
});
