/**
 * Card files written by hand or by another tool, as people and agents write them, dropped into
 * HEALTH_HOME/data before the real server starts and drawn by the web app in Debian's Chromium:
 * each field the manifest gives is read and shown, nothing is silently left out.
 * - an older metric-card that names fields with its `latest.` paths everywhere (the headline
 *   `format`, the subtitle, a threshold's `ifField`, the trend arrow), not only in `primary`;
 * - an older metric-card whose `secondary` path names a field its `format` does not show;
 * - `{field:emoji}` in a list card's line and a table column's template, with the card's emojiMap;
 * - a combination card reading its sources' latest day (`dateContext: "latest"`) on a past day;
 * - a greeting banner whose data is an object holding its list of messages, or one message object.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import type { WatchedPage } from './browser.js';
import { watchPages } from './watched-pages.js';

const DAY = '2026-04-20';

/** An older blood-pressure card whose every path reads `latest.`, as its `primary` does. */
const LATEST_PATHS = {
  $schema: 'eddzhealth.datafile.v1',
  meta: {
    id: 'bp-paths',
    label: 'Blood pressure (paths)',
    emoji: '❤️',
    view: {
      enabled: true,
      component: 'metric-card',
      dateContext: 'latest',
      display: {
        primary: 'latest.systolic',
        format: '{latest.systolic}/{latest.diastolic}',
        unit: 'mmHg',
        subtitle: 'Logged {latest.date}',
        trendArrow: { field: 'latest.systolic', lowerIsBetter: true },
        thresholds: [
          { ifField: 'latest.systolic', max: 120, colour: '#16a34a', label: 'Optimal' },
          { max: 140, colour: '#ca8a04', label: 'Elevated' },
        ],
      },
    },
  },
  data: [
    { date: '2026-04-18', systolic: 131, diastolic: 85 },
    { date: DAY, systolic: 118, diastolic: 76 },
  ],
};

/** An older glucose card: its `secondary` path is a second value the `format` leaves out. */
const SECOND_VALUE = {
  $schema: 'eddzhealth.datafile.v1',
  meta: {
    id: 'glucose',
    label: 'Glucose',
    view: {
      enabled: true,
      component: 'metric-card',
      display: {
        primary: 'latest.mmol',
        secondary: 'latest.context',
        format: '{mmol:round(1)}',
        unit: 'mmol/L',
      },
    },
  },
  data: [{ date: DAY, mmol: 5.43, context: 'after meal' }],
};

/** A symptom list whose line shows the severity as an emoji, and a table of moods on Reports. */
const SYMPTOMS = {
  $schema: 'klebb.datafile.v1',
  meta: {
    id: 'symptoms',
    label: 'Symptoms',
    view: {
      enabled: true,
      component: 'list-card',
      display: {
        primaryField: 'what.name',
        secondaryTemplate: '{severity:emoji|?} since {since|}',
        emojiMap: { severity: { '1': '🟢', '3': '🔴' } },
      },
    },
  },
  data: [
    { what: { name: 'Knee pain' }, severity: 3, since: 'Nov' },
    { what: { name: 'Rash' }, severity: '1' },
  ],
};

const MOOD_TABLE = {
  $schema: 'klebb.datafile.v1',
  meta: {
    id: 'mood-log',
    label: 'Mood log',
    view: { display: { emojiMap: { mood: { '1': '😩', '4': '🙂' } } } },
    reports: {
      enabled: true,
      component: 'table-list',
      columns: [
        { field: 'date', header: 'Day' },
        { field: 'mood', header: 'Mood', format: '{mood:emoji} ({mood})' },
      ],
    },
  },
  data: [
    { date: '2026-04-19', mood: 1 },
    { date: DAY, mood: 4 },
  ],
};

/** A morning card over the weight card (`weight.json`), by the sources' latest day. */
const WEIGHT = {
  $schema: 'klebb.datafile.v1',
  meta: { id: 'weight', label: 'Weight', view: { enabled: true, component: 'generic-card' } },
  data: [
    { date: '2026-04-18', kg: 85.1 },
    { date: DAY, kg: 84.6 },
  ],
};
const MORNING = {
  $schema: 'klebb.datafile.v1',
  meta: {
    id: 'morning',
    label: 'Morning',
    view: {
      enabled: true,
      component: 'combination-card',
      dateContext: 'latest',
      combines: [{ sourceId: 'weight', role: 'primary', accessor: 'kg', unit: 'kg' }],
    },
  },
  data: [],
};

/** An older greeting whose messages sit in an object, as another tool wrote it. */
const GREETING = {
  $schema: 'eddzhealth.datafile.v1',
  meta: { id: 'hello', label: 'Hello', view: { enabled: true, component: 'greeting-banner', slot: 'top' } },
  data: { messages: [{ text: 'Drink water 💧' }, 'Stretch 🧘‍♀️'] },
};

/** A greeting of one message, written as the object a list of them holds. */
const ONE_GREETING = {
  $schema: 'klebb.datafile.v1',
  meta: { id: 'hello-one', label: 'Hello once', view: { enabled: true, component: 'greeting-banner' } },
  data: { text: 'Breathe out slowly 🌬️' },
};

const FILES: Record<string, unknown> = {
  'hello.json': GREETING,
  'hello-one.json': ONE_GREETING,
  'weight.json': WEIGHT,
  'morning.json': MORNING,
  'bp-paths.json': LATEST_PATHS,
  'glucose.json': SECOND_VALUE,
  'symptoms.json': SYMPTOMS,
  'mood-log.json': MOOD_TABLE,
};

let s: TestServer;
const { open } = watchPages({ timezoneId: 'Europe/Berlin' });

beforeAll(async () => {
  s = await startServer({
    before: (_home, dataDir) => {
      fs.mkdirSync(dataDir, { recursive: true });
      for (const [name, m] of Object.entries(FILES))
        fs.writeFileSync(path.join(dataDir, name), JSON.stringify(m, null, 2));
    },
  });
});

afterAll(async () => {
  await s?.close();
});

const card = (w: WatchedPage, id: string) => w.page.locator(`main .card[data-card-id="${id}"]`);
const textOf = async (w: WatchedPage, id: string, sel: string) =>
  ((await card(w, id).locator(sel).first().textContent()) ?? '').trim();

describe('hand-written card files', { timeout: 90_000 }, () => {
  it('loads every file without an error', async () => {
    const r = await s.api('/api/manifests');
    expect(r.body.errors).toEqual([]);
    expect(r.body.entries.map((e: { id: string }) => e.id).sort()).toEqual(
      Object.values(FILES)
        .map((m) => (m as { meta: { id: string } }).meta.id)
        .sort(),
    );
  });

  it('an older metric-card reads its latest.-paths in the headline, subtitle, band and arrow', async () => {
    const w = await open(`${s.url}/day/${DAY}`);
    await card(w, 'bp-paths').locator('.gc-value').waitFor();
    expect(await textOf(w, 'bp-paths', '.gc-value')).toBe('118/76');
    expect(await textOf(w, 'bp-paths', '.gc-subtitle')).toBe('Logged 2026-04-20');
    expect(await textOf(w, 'bp-paths', '.gc-pill')).toBe('Optimal');
    expect(await textOf(w, 'bp-paths', '.gc-trend')).toBe('↓−13');
    expect(await card(w, 'bp-paths').locator('.gc-trend').getAttribute('class')).toContain('gc-trend-good');
  });

  it('an older metric-card shows its secondary path when the format leaves that field out', async () => {
    const w = await open(`${s.url}/day/${DAY}`);
    await card(w, 'glucose').locator('.gc-value').waitFor();
    expect(await textOf(w, 'glucose', '.gc-value')).toBe('5.4');
    expect(await textOf(w, 'glucose', '.gc-secondary')).toBe('after meal');
  });

  it('a list card and a table fill {field:emoji} from the card’s emojiMap', async () => {
    const w = await open(`${s.url}/day/${DAY}`);
    const list = card(w, 'symptoms');
    await list.getByText('Knee pain').waitFor();
    const lines = (await list.locator('li').allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim());
    expect(lines[0]).toContain('Knee pain');
    expect(lines[0]).toContain('🔴 since Nov');
    expect(lines[1]).toContain('Rash');
    expect(lines[1]).toContain('🟢 since');

    const r = await open(`${s.url}/reports`);
    const cells = await card(r, 'mood-log').locator('tbody td:nth-child(2)').allInnerTexts();
    expect(cells.map((c) => c.trim())).toEqual(['😩 (1)', '🙂 (4)']);
  });

  it('a combination card by the latest day shows, on a past day, what was known then', async () => {
    const value = async (url: string) => {
      const w = await open(url);
      const v = card(w, 'morning').locator('.combo-primary .combo-value');
      await v.waitFor();
      return ((await v.textContent()) ?? '').trim();
    };
    expect(await value(`${s.url}/day/${DAY}`)).toBe('84.6');
    // the day before: the reading of 18 April, never the one of the 20th still to come
    expect(await value(`${s.url}/day/2026-04-19`)).toBe('85.1');
  });

  it('a greeting shows its messages from an object holding the list', async () => {
    const w = await open(`${s.url}/day/${DAY}`);
    const message = card(w, 'hello').locator('.greeting-message');
    await message.waitFor();
    expect(['Drink water 💧', 'Stretch 🧘‍♀️']).toContain(((await message.textContent()) ?? '').trim());
    // reading it never rewrites the card's data
    expect((await s.api('/api/manifests/hello/data')).body.data).toEqual(GREETING.data);
  });

  it('a greeting of one message object shows it', async () => {
    const w = await open(`${s.url}/day/${DAY}`);
    const message = card(w, 'hello-one').locator('.greeting-message');
    await message.waitFor();
    expect(((await message.textContent()) ?? '').trim()).toBe('Breathe out slowly 🌬️');
    expect((await s.api('/api/manifests/hello-one/data')).body.data).toEqual(ONE_GREETING.data);
  });
});
