/**
 * The card gallery over HTTP, on the real server with the templates of templates/:
 * - `GET /api/templates` lists every template file, none refused, each with a title, a
 *   description for people (no field names, JSON or paths), a category and a preview whose sample
 *   rows end on the day asked for;
 * - `POST /api/settings/cards/from-template` makes a card from each of them that loads with no
 *   error; a second card from the same template gets the next free id and a numbered label; the
 *   template's own block is gone from the new card; example data (medicines, lab values) does not
 *   come along, content (a guide, greetings) does;
 * - bad input is 400/404 naming `templateId`, and nothing is created;
 * - both routes need a signed-in caller.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { readTemplate, templateIds } from '../helpers/templates.js';

let s: TestServer;
beforeAll(async () => {
  s = await startServer({ env: { AGENT_API_TOKEN: 'right' } });
});
afterAll(async () => {
  await s?.close();
});

const cardIds = async () =>
  (await s.api('/api/manifests')).body.entries.map((e: { id: string }) => e.id).sort() as string[];

describe('GET /api/templates', () => {
  it('lists every template with a description for people and a dated preview', async () => {
    const r = await s.api('/api/templates?today=2026-04-20');
    expect(r.status).toBe(200);
    expect(r.body.errors).toEqual([]);
    const ids = r.body.templates.map((t: { id: string }) => t.id);
    expect(ids).toEqual(templateIds());
    for (const t of r.body.templates) {
      const file = readTemplate(t.id);
      expect(t.title, t.id).toBe(file.meta.label);
      expect(t.category, t.id).toBeTypeOf('string');
      expect(t.description.length, `${t.id} has a description`).toBeGreaterThan(20);
      expect(t.description, t.id).not.toMatch(/meta\.|\{|\}|\/api\/|\$HEALTH_HOME|JSON/);
      expect(t.views.length, `${t.id} shows somewhere`).toBeGreaterThan(0);
      expect(t.preview.meta.id, t.id).toBe(t.id);
      expect(t.preview.meta).not.toHaveProperty('template');
    }
    const weight = r.body.templates.find((t: { id: string }) => t.id === 'weight');
    expect(weight.synonyms).toContain('scales');
    expect(weight.featured).toBe(true);
    expect(weight.views).toEqual(['today', 'trends', 'calendar']);
    const dates = weight.preview.data.map((row: { date: string }) => row.date);
    expect(dates.at(-1)).toBe('2026-04-20');
    expect(dates[0]).toBe('2026-04-14');
    expect(weight.preview.data[0]).not.toHaveProperty('daysAgo');
  });

  it('refuses a today that is not a date, naming it', async () => {
    const r = await s.api('/api/templates?today=yesterday');
    expect(r.status).toBe(400);
    expect(r.body.details).toEqual([
      { path: 'query.today', message: 'must be a day of the calendar written YYYY-MM-DD' },
    ]);
  });
});

describe('POST /api/settings/cards/from-template', () => {
  it('makes a card from every template, each loading with no error', async () => {
    for (const id of templateIds()) {
      const r = await s.api('/api/settings/cards/from-template', { json: { templateId: id } });
      expect(r.status, `${id}: ${r.text}`).toBe(201);
      expect(r.body).toMatchObject({ ok: true, id, templateId: id, label: readTemplate(id).meta.label });
    }
    const list = await s.api('/api/manifests');
    expect(list.body.errors).toEqual([]);
    expect(await cardIds()).toEqual([...templateIds(), 'welcome'].sort());
    // the gallery block stays in the gallery
    const onDisk = JSON.parse(fs.readFileSync(path.join(s.dataDir, 'weight.json'), 'utf8'));
    expect(onDisk.meta).not.toHaveProperty('template');
    expect(onDisk.meta.view.display.trendArrow).toEqual({ field: 'kg', goodDirection: 'down' });
    // the first card of a new home hid the welcome card
    expect((await s.api('/api/manifests/welcome')).body.meta.enabled).toBe(false);
  });

  it('starts example data empty and keeps content', async () => {
    expect((await s.api('/api/manifests/lab-results/data')).body.data).toEqual([]);
    expect((await s.api('/api/manifests/medication-schedule/data')).body.data).toEqual({
      groups: [],
      items: [],
    });
    expect((await s.api('/api/manifests/greeting/data')).body.data).toEqual(readTemplate('greeting').data);
    expect((await s.api('/api/manifests/getting-started/data')).body.data).toEqual(
      readTemplate('getting-started').data,
    );
  });

  it('refuses a second card from a template 409 naming the first, unless a copy is asked for', async () => {
    const before = await cardIds();
    const twice = await s.api('/api/settings/cards/from-template', { json: { templateId: 'weight' } });
    expect(twice.status, twice.text).toBe(409);
    expect(twice.body).toMatchObject({ code: 'CARD_EXISTS', id: 'weight' });
    expect(twice.body.error).toContain('"weight"');
    expect(twice.body.details[0].path).toBe('body.templateId');
    const notBool = await s.api('/api/settings/cards/from-template', {
      json: { templateId: 'weight', copy: 'yes' },
    });
    expect(notBool.status).toBe(400);
    expect(notBool.body.details[0].path).toBe('body.copy');
    expect(await cardIds()).toEqual(before);
  });

  it('gives a copy of a template the next free id and a numbered label', async () => {
    const r = await s.api('/api/settings/cards/from-template', {
      json: { templateId: 'weight', copy: true },
    });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ id: 'weight-2', label: 'Body weight 2' });
    const again = await s.api('/api/settings/cards/from-template', {
      json: { templateId: 'weight', copy: true },
    });
    expect(again.body).toMatchObject({ id: 'weight-3', label: 'Body weight 3' });
    // a reminder that names its own card follows it to the new id
    const med = await s.api('/api/settings/cards/from-template', {
      json: { templateId: 'medication-schedule', copy: true },
    });
    expect(med.body.id).toBe('medication-schedule-2');
    const meta = (await s.api('/api/manifests/medication-schedule-2')).body.meta;
    expect(meta.notifications.items[0].trigger.card).toBe('medication-schedule-2');
  });

  it('refuses bad input naming templateId, and creates nothing', async () => {
    const before = await cardIds();
    const cases: [unknown, number, string, string][] = [
      [{}, 400, 'BAD_REQUEST', 'is required'],
      [{ templateId: 7 }, 400, 'BAD_REQUEST', 'must be a template id (a string)'],
      [{ templateId: 'no-such-card' }, 404, 'TEMPLATE_NOT_FOUND', 'no template with this id'],
      [{ templateId: '../package' }, 404, 'TEMPLATE_NOT_FOUND', 'no template with this id'],
    ];
    for (const [json, status, code, message] of cases) {
      const r = await s.api('/api/settings/cards/from-template', { json });
      expect(r.status, JSON.stringify(json)).toBe(status);
      expect(r.body.code).toBe(code);
      expect(r.body.details).toEqual([{ path: 'body.templateId', message }]);
    }
    const notObject = await s.api('/api/settings/cards/from-template', { json: ['weight'] });
    expect(notObject.status).toBe(400);
    expect(await cardIds()).toEqual(before);
  });

  it('needs a signed-in caller', async () => {
    for (const [method, url] of [
      ['GET', '/api/templates'],
      ['POST', '/api/settings/cards/from-template'],
    ] as const) {
      const json = method === 'POST' ? { templateId: 'mood', copy: true } : undefined;
      const wrong = await s.api(url, { method, json, token: 'wrong' });
      expect(wrong.status, `${method} ${url}`).toBe(401);
      const anon = await s.api(url, { method, json, headers: { 'x-forwarded-for': '203.0.113.5' } });
      expect(anon.status, `${method} ${url}`).toBe(401);
      const right = await s.api(url, { method, json, token: 'right' });
      expect(right.status, `${method} ${url}`).toBe(method === 'POST' ? 201 : 200);
    }
  });
});
