/**
 * Every refusal of a request names the field as the request holds it, behind the part it came
 * in (`body.`, `query.`), as docs/API.md "Errors" says. A row written by a person with a bad
 * date was refused naming `body.entry.date` though the body has `value` (or `changes`); many
 * routes named their fields bare (`tz`, `intent`, `templateId`, `title`, `messages[0].role` …)
 * because the rules they share with the chat tools name a field within their own arguments.
 * (A token's `body.name` and `body.access` need a signed-in person: test/auth/name-characters.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiInit, startServer, type TestServer } from '../helpers/server.js';
import { readTemplate } from '../helpers/templates.js';

const T = 'field-paths-token';
const ADMIN = 'field-paths-admin-token';
let s: TestServer;
/** A person on this machine, from the web app's origin (their day rules apply to rows). */
const person = (p: string, init: ApiInit = {}) =>
  s.api(p, { ...init, headers: { origin: s.url, ...init.headers } });
const agent = (p: string, init: ApiInit = {}) => s.api(p, { token: T, ...init });

/** The paths a refusal names. */
const paths = (r: { body: { details?: { path: string }[] } }) => (r.body.details ?? []).map((d) => d.path);

beforeAll(async () => {
  s = await startServer({ env: { AGENT_API_TOKEN: T, KLEBB_ADMIN_TOKEN: ADMIN } });
  const conc = {
    $schema: 'klebb.datafile.v1',
    meta: {
      id: 'conc',
      label: 'Conc',
      writeable: { fromWebapp: true, inputs: [{ key: 'n', type: 'number', label: 'N' }] },
      view: { component: 'generic-card' },
    },
    data: [{ date: '2026-01-01', n: 1 }],
  };
  expect((await agent('/api/manifests', { json: conc })).status).toBe(201);
  expect((await agent('/api/manifests', { json: readTemplate('weight') })).status).toBe(201);
});
afterAll(async () => {
  await s?.close();
});

describe('a person’s row write names the row as the body holds it', () => {
  it('POST rows with a day off the calendar names body.value.date', async () => {
    const r = await person('/api/manifests/conc/rows', { json: { value: { date: '2026-13-31', n: 1 } } });
    expect(r.status).toBe(422);
    expect(paths(r)).toEqual(['body.value.date']);
  });

  it('POST rows with a future day names body.value.date', async () => {
    const r = await person('/api/manifests/conc/rows', { json: { value: { date: '2099-01-01', n: 1 } } });
    expect(r.status).toBe(422);
    expect(r.body.code).toBe('DATE_NOT_ALLOWED');
    expect(paths(r)).toEqual(['body.value.date']);
  });

  it('PATCH rows with a day off the calendar names body.changes.date', async () => {
    const r = await person('/api/manifests/conc/rows', {
      method: 'PATCH',
      json: { path: '[index=0]', changes: { date: '2026-13-31' } },
    });
    expect(r.status).toBe(422);
    expect(paths(r)).toEqual(['body.changes.date']);
  });

  it('a row or data that is not the right shape names body.value / body.data', async () => {
    expect(paths(await agent('/api/manifests/conc/rows', { json: { value: 'x' } }))).toEqual(['body.value']);
    expect(paths(await agent('/api/manifests/conc/data', { json: { data: 'x' } }))).toEqual(['body.data']);
  });

  it('DELETE rows without a path names query.path', async () => {
    const r = await agent('/api/manifests/conc/rows', { method: 'DELETE' });
    expect(r.status).toBe(400);
    expect(paths(r)).toEqual(['query.path']);
  });

  it('an entry that changed meanwhile names body.expect', async () => {
    const r = await agent('/api/manifests/conc/entries/0', {
      method: 'PUT',
      json: { entry: { date: '2026-01-01', n: 2 }, expect: { date: '2026-01-01', n: 9 } },
    });
    expect(r.status).toBe(412);
    expect(paths(r)).toEqual(['body.expect']);
  });
});

describe('every route names its body fields under body.', () => {
  const cases: [string, string, ApiInit, string[]][] = [
    ['time zone', '/api/user/tz', { json: { tz: 'Mars/Olympus' } }, ['body.tz']],
    ['feedback without intent', '/api/feedback', { json: {} }, ['body.intent']],
    ['feedback of an unknown kind', '/api/feedback', { json: { intent: 'x', kind: 'wish' } }, ['body.kind']],
    [
      'an unknown template',
      '/api/settings/cards/from-template',
      { json: { templateId: 'nope' } },
      ['body.templateId'],
    ],
    [
      'copy that is no boolean',
      '/api/settings/cards/from-template',
      { json: { templateId: 'steps', copy: 'yes' } },
      ['body.copy'],
    ],
    [
      'card order with an id twice',
      '/api/manifests/reorder',
      { json: { order: ['conc', 'conc'] } },
      ['body.order'],
    ],
    ['a conversation title of a number', '/api/conversations', { json: { title: 5 } }, ['body.title']],
    [
      'a message of an unknown role',
      '/api/conversations',
      { json: { messages: [{ role: 'robot', content: 'hi' }] } },
      ['body.messages[0].role'],
    ],
    ['an empty search', '/api/conversations/search', { json: { q: '' } }, ['body.q']],
    [
      'a chat message of an unknown role',
      '/api/chat',
      { json: { messages: [{ role: 'robot', content: 'hi' }] } },
      ['body.messages[0].role'],
    ],
    [
      'legacy history of no list',
      '/api/chat/history',
      { method: 'PUT', json: { messages: 5 } },
      ['body.messages'],
    ],
    [
      'an unknown metric',
      '/api/health-auto-export/cards',
      { json: { metric: 'no_such_metric' } },
      ['body.metric'],
    ],
    [
      'a card that does not exist',
      '/api/health-auto-export/cards',
      { json: { card: 'nope', metric: 'step_count' } },
      ['body.card'],
    ],
    [
      'a suggestion dismissed without cards',
      '/api/cc-suggestions/activity/dismiss',
      { json: {} },
      ['body.cardIds'],
    ],
    ['a nudge of an unknown kind', '/api/hygiene/conc/dismiss', { json: { kind: 'odd' } }, ['body.kind']],
    [
      'an admin invite label',
      '/api/admin/invites',
      { token: ADMIN, json: { label: 'Not A Label' } },
      ['body.label'],
    ],
    [
      'an admin invite lifetime',
      '/api/admin/invites',
      { token: ADMIN, json: { expiresInDays: 'week' } },
      ['body.expiresInDays'],
    ],
  ];
  it.each(cases)('%s', async (_what, path, init, expected) => {
    const r = await s.api(path, { token: T, ...init });
    expect(r.status, JSON.stringify(r.body)).toBeGreaterThanOrEqual(400);
    expect(paths(r)).toEqual(expected);
  });

  it('a PATCH of a conversation without title names body.title', async () => {
    const c = await agent('/api/conversations', { json: {} });
    const r = await agent(`/api/conversations/${c.body.conversation.id}`, { method: 'PATCH', json: {} });
    expect(r.status).toBe(400);
    expect(paths(r)).toEqual(['body.title']);
  });

  it('a registration code in the query names query.code', async () => {
    const r = await s.api(`/auth/register/available?code=${'x'.repeat(600)}`);
    expect(r.status).toBe(400);
    expect(paths(r)).toEqual(['query.code']);
  });
});
