/**
 * Manifest files written by hand load with every field read: a value with one plain meaning in
 * another spelling (weekdays as the schedule block takes them, "7:30", "true" and "3" as text,
 * keywords in capitals, `null` for "not set", a bare cadence or ingest, a display written as its
 * template, an input type by another name, a trend arrow or a threshold in its short form) is read
 * as that value, not dropped as FIELD_DROPPED or left unread.
 * Real server, files dropped into data/ before the start; reminders read through
 * GET /api/notifications, the rest through GET /api/manifests.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';

type Meta = Record<string, unknown>;
const card = (id: string, meta: Meta) => ({
  $schema: 'klebb.datafile.v1',
  meta: { id, label: `Card ${id}`, view: { enabled: true, component: 'generic-card' }, ...meta },
});
const reminder = (extra: Meta) => ({ id: 'r', label: 'Reminder', title: 'Time', body: 'Log it.', ...extra });

const FILES: Record<string, unknown> = {
  'days-names': card('days-names', {
    notifications: {
      items: [
        reminder({ trigger: { type: 'weekly', time: '07:30', days: ['Mon', 'Wednesday', 'FRI'] } }),
        reminder({ id: 'r2', trigger: { type: 'Weekly', time: '7:05', days: 'sat, sun' } }),
      ],
    },
  }),
  'time-forms': card('time-forms', {
    notifications: {
      enabled: 'true',
      items: [
        reminder({ trigger: { type: 'DAILY', time: '21:00:00' } }),
        reminder({ id: 'pm', trigger: { type: 'daily', time: '9:15 pm' } }),
        reminder({
          id: 'due',
          trigger: { type: 'schedule-due', time: '08:00', card: 'meds', time_of_day: 'Morning' },
        }),
      ],
    },
  }),
  'items-only': card('items-only', {
    // the items written as the block itself, one without id, one without label, one with its trigger on it
    notifications: [
      {
        label: 'Evening check',
        title: 'Evening',
        body: 'Measure now.',
        trigger: { type: 'daily', time: '20:00' },
      },
      {
        id: 'Morning',
        title: 'Weigh in',
        body: 'Before breakfast.',
        trigger: { type: 'daily', time: '07:00' },
      },
      {
        id: 'flat',
        label: 'Flat',
        title: 'Flat',
        body: 'Flat.',
        type: 'weekly',
        time: '18:00',
        days: ['tue'],
      },
    ],
  }),
  'reminders-key': card('reminders-key', {
    reminders: { items: [reminder({ trigger: { type: 'daily', time: '06:45' } })] },
  }),
  'null-fields': card('null-fields', {
    emoji: null,
    order: null,
    enabled: null,
    category: null,
    trends: null,
    writeable: null,
    ingest: null,
    cadence: null,
    notifications: null,
    schedule: null,
    prompt: null,
    calendar: { enabled: true, component: 'day-marker', marker: null },
  }),
  'cadence-number': card('cadence-number', { cadence: 7 }),
  'cadence-text': card('cadence-text', { cadence: { expectDays: '14' } }),
  'cadence-snake': card('cadence-snake', { cadence: { expect_days: 3 } }),
  'cadence-word': card('cadence-word', { cadence: 'weekly' }),
  'ingest-caps': card('ingest-caps', {
    view: { enabled: true, component: 'generic-card', display: { template: '{count}' } },
    ingest: { source: 'HAE', metric: 'step_count' },
  }),
  'ingest-name': card('ingest-name', {
    view: { enabled: true, component: 'generic-card', display: { template: '{count}' } },
    ingest: { source: 'Health Auto Export', metric: 'step_count' },
  }),
  'ingest-bare': card('ingest-bare', {
    view: { enabled: true, component: 'generic-card', display: { template: '{count}' } },
    ingest: 'step_count',
  }),
  'ingest-no-source': card('ingest-no-source', {
    view: { enabled: true, component: 'generic-card', display: { template: '{count}' } },
    ingest: { metric: 'step_count' },
  }),
  'display-short-forms': card('display-short-forms', {
    view: {
      enabled: true,
      component: 'generic-card',
      display: {
        template: '{kg:round(1)} kg',
        trendArrow: true,
        thresholds: { ifField: 'kg', min: 90, colour: 'red', label: 'High' },
      },
    },
    trends: { enabled: true, component: 'generic-card', display: { template: '{kg}', trendArrow: 'kg' } },
  }),
  'combines-one': card('combines-one', {
    view: {
      enabled: true,
      component: 'combination-card',
      combines: { sourceId: 'display-short-forms', role: 'primary' },
    },
  }),
  'scalars-as-text': card('scalars-as-text', {
    enabled: 'false',
    order: '-50',
    category: 'Vitals',
    view: { enabled: 'TRUE', component: 'generic-card', display: '{kg} kg' },
    writeable: {
      fromWebapp: 'true',
      pastAllowed: 'false',
      maxReadingsPerDay: '3',
      inputs: [
        { key: 'kg', type: 'Number' },
        { key: 'reps', type: 'integer' },
        { key: 'note', type: 'string' },
        { key: 'fasted', type: 'boolean' },
        { key: 'effort', type: 'slider', min: 1, max: 10 },
      ],
    },
  }),
};

// a card without a title, and one whose title is only spaces
FILES['blood-pressure'] = {
  $schema: 'klebb.datafile.v1',
  meta: { id: 'blood-pressure', view: { enabled: true, component: 'generic-card' } },
};
FILES.wakeUps = { $schema: 'klebb.datafile.v1', meta: { id: 'wakeUps', label: '  ' } };

let s: TestServer;
let entries: Map<string, { meta: Meta }>;
let errors: unknown[];

beforeAll(async () => {
  s = await startServer({
    before: (_home, dataDir) => {
      fs.mkdirSync(dataDir, { recursive: true });
      for (const [id, m] of Object.entries(FILES))
        fs.writeFileSync(path.join(dataDir, `${id}.json`), JSON.stringify(m, null, 2));
    },
  });
  const r = await s.api('/api/manifests');
  entries = new Map(r.body.entries.map((e: { id: string; meta: Meta }) => [e.id, e]));
  errors = r.body.errors;
});
afterAll(async () => {
  await s?.close();
});

const metaOf = (id: string): Meta => {
  const e = entries.get(id);
  if (!e) throw new Error(`no card ${id}; errors: ${JSON.stringify(errors)}`);
  return e.meta;
};

describe('hand-written spellings load without a dropped field', () => {
  it('every file is a card and nothing is reported', () => {
    expect(errors).toEqual([]);
    expect([...entries.keys()].sort()).toEqual(Object.keys(FILES).sort());
  });

  it('reminders are scheduled with their weekdays, times and keywords read', async () => {
    const r = await s.api('/api/notifications');
    expect(r.status).toBe(200);
    const byId = Object.fromEntries(
      r.body.notifications.map((n: { id: string; trigger: unknown; label: string }) => [
        n.id,
        { trigger: n.trigger, label: n.label },
      ]),
    );
    expect(byId).toEqual({
      'days-names#r': {
        label: 'Reminder',
        trigger: { type: 'weekly', time: '07:30', days: ['mon', 'wed', 'fri'] },
      },
      'days-names#r2': {
        label: 'Reminder',
        trigger: { type: 'weekly', time: '07:05', days: ['sat', 'sun'] },
      },
      'time-forms#r': { label: 'Reminder', trigger: { type: 'daily', time: '21:00' } },
      'time-forms#pm': { label: 'Reminder', trigger: { type: 'daily', time: '21:15' } },
      'time-forms#due': {
        label: 'Reminder',
        trigger: { type: 'schedule_due', time: '08:00', card: 'meds', time_of_day: 'morning' },
      },
      'items-only#evening-check': { label: 'Evening check', trigger: { type: 'daily', time: '20:00' } },
      'items-only#morning': { label: 'Weigh in', trigger: { type: 'daily', time: '07:00' } },
      'items-only#flat': { label: 'Flat', trigger: { type: 'weekly', time: '18:00', days: ['tue'] } },
      'reminders-key#r': { label: 'Reminder', trigger: { type: 'daily', time: '06:45' } },
    });
  });

  it('null is a field not set', () => {
    const meta = metaOf('null-fields');
    expect(Object.keys(meta).sort()).toEqual(['calendar', 'id', 'label', 'view']);
    expect(meta.calendar).toEqual({ enabled: true, component: 'day-marker' });
  });

  it('cadence written as a number, as text, in snake case or as a word', () => {
    expect(metaOf('cadence-number').cadence).toEqual({ expectDays: 7 });
    expect(metaOf('cadence-text').cadence).toEqual({ expectDays: 14 });
    expect(metaOf('cadence-snake').cadence).toEqual({ expectDays: 3 });
    expect(metaOf('cadence-word').cadence).toEqual({ expectDays: 7 });
  });

  it('ingest names Health Auto Export however it is spelt, or not at all', () => {
    for (const id of ['ingest-caps', 'ingest-name', 'ingest-bare', 'ingest-no-source'])
      expect(metaOf(id).ingest, id).toEqual({ source: 'hae', metric: 'step_count' });
  });

  it('booleans and whole numbers written as text, capitals, a display as its template, input types by other names', () => {
    const meta = metaOf('scalars-as-text');
    expect(meta.enabled).toBe(false);
    expect(meta.order).toBe(-50);
    expect(meta.category).toBe('vitals');
    expect(meta.view).toEqual({ enabled: true, component: 'generic-card', display: { template: '{kg} kg' } });
    expect(meta.writeable).toEqual({
      fromWebapp: true,
      pastAllowed: false,
      maxReadingsPerDay: 3,
      inputs: [
        { key: 'kg', type: 'number' },
        { key: 'reps', type: 'number', step: 1 },
        { key: 'note', type: 'text' },
        { key: 'fasted', type: 'checkbox' },
        { key: 'effort', type: 'number', min: 1, max: 10 },
      ],
    });
  });

  it('a display in its short forms: trendArrow as a field or true, one threshold, one combined source', () => {
    expect(metaOf('display-short-forms').view).toMatchObject({
      display: {
        trendArrow: { field: 'kg' },
        thresholds: [{ ifField: 'kg', min: 90, colour: 'red', label: 'High' }],
      },
    });
    expect(metaOf('display-short-forms').trends).toMatchObject({ display: { trendArrow: { field: 'kg' } } });
    expect(metaOf('combines-one').view).toMatchObject({
      combines: [{ sourceId: 'display-short-forms', role: 'primary' }],
    });
  });

  it('a card without a title is titled after its id', () => {
    expect(metaOf('blood-pressure').label).toBe('Blood pressure');
    expect(metaOf('wakeUps').label).toBe('Wake ups');
  });

  it('the files stay as they were written', () => {
    for (const [id, m] of Object.entries(FILES)) {
      expect(JSON.parse(fs.readFileSync(path.join(s.dataDir, `${id}.json`), 'utf8')), id).toEqual(m);
    }
  });
});
