/**
 * The dashboard's gentle prompts over HTTP, on the real server:
 * - `GET /api/prompts`: a new home gets general first steps; then the switched-on cards' own
 *   starter prompts, one card after the other, at most four; a card with entries and no prompts of
 *   its own gets "Show me my <label> data"; a switched-off card gives none;
 * - `GET /api/cc-suggestions`: three switched-on cards of one category suggest a combined view;
 *   a switched-off card or one a combination card already shows does not count; a dismissal
 *   holds across a restart and ends when the set of cards changes;
 * - `GET /api/hygiene`: a card declaring `cadence.expectDays` and not logged for longer is
 *   reported with its label and age; a dismissal holds across a restart and goes with a card
 *   deleted in the app, so the same card added again is nudged;
 * - bad input is a 4xx naming the field, and nothing is recorded.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, todayIn } from '../../src/common/dates.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { readTemplate } from '../helpers/templates.js';

let s: TestServer;
beforeAll(async () => {
  s = await startServer();
});
afterAll(async () => {
  await s?.close();
});

const add = async (templateId: string) => {
  const r = await s.api('/api/settings/cards/from-template', { json: { templateId } });
  expect(r.status, r.text).toBe(201);
  return r.body.id as string;
};
const promptTexts = async () =>
  (await s.api('/api/prompts')).body.prompts.map((p: { text: string }) => p.text) as string[];
const firstPrompt = (id: string) =>
  (readTemplate(id).meta.chat as { starterPrompts: { text: string }[] }).starterPrompts[0].text;

describe('GET /api/prompts', () => {
  it('offers general first steps on a new home', async () => {
    const r = await s.api('/api/prompts');
    expect(r.status).toBe(200);
    expect(r.body.prompts.length).toBeGreaterThan(0);
    for (const p of r.body.prompts) {
      expect(p.cardId).toBeUndefined();
      expect(['data', 'tweak']).toContain(p.kind);
    }
  });

  it("takes the cards' own prompts, one card after the other, at most four", async () => {
    for (const id of ['weight', 'bp', 'sleep-hours']) await add(id);
    const texts = await promptTexts();
    // bp has two prompts; each card's first comes before any card's second
    expect(texts.slice(0, 3).sort()).toEqual(
      [firstPrompt('bp'), firstPrompt('sleep-hours'), firstPrompt('weight')].sort(),
    );
    expect(texts).toHaveLength(4);
    expect(texts[3]).toBe('Remind me to measure my blood pressure every evening');
    for (const id of ['mood', 'steps']) await add(id);
    expect(await promptTexts()).toHaveLength(4);
  });

  it('leaves out switched-off cards, and offers "Show me my … data" for a card with entries and no prompts', async () => {
    for (const id of ['weight', 'bp', 'sleep-hours', 'mood', 'steps']) {
      await s.api(`/api/settings/cards/${id}/disable`, { method: 'POST' });
    }
    const made = await s.api('/api/manifests', {
      json: {
        $schema: 'klebb.datafile.v1',
        meta: { id: 'naps', label: 'Naps', view: { enabled: true, component: 'generic-card' } },
        data: [{ date: '2026-04-20', minutes: 20 }],
      },
    });
    expect(made.status).toBe(201);
    expect(await promptTexts()).toEqual(['Show me my Naps data']);
    for (const id of ['weight', 'bp', 'sleep-hours', 'mood', 'steps']) {
      await s.api(`/api/settings/cards/${id}/enable`, { method: 'POST' });
    }
    await s.api('/api/manifests/naps', { method: 'DELETE' });
  });
});

describe('combined-view suggestions', () => {
  const suggestions = async () => (await s.api('/api/cc-suggestions')).body.suggestions;

  it('suggests a combined view for three switched-on cards of one category', async () => {
    expect(await suggestions()).toEqual([]);
    for (const id of ['spo2', 'glucose']) await add(id);
    // bp, spo2, glucose are vital signs
    const list = await suggestions();
    expect(list).toHaveLength(1);
    expect(list[0].category).toBe('vitals');
    expect([...list[0].cardIds].sort()).toEqual(['bp', 'glucose', 'spo2']);
    expect(list[0].labels.sort()).toEqual(['Blood glucose', 'Blood oxygen', 'Blood pressure']);
    await s.api('/api/settings/cards/spo2/disable', { method: 'POST' });
    expect(await suggestions()).toEqual([]);
    await s.api('/api/settings/cards/spo2/enable', { method: 'POST' });
  });

  it('remembers a dismissal across a restart, until the set of cards changes', async () => {
    const [one] = await suggestions();
    const r = await s.api('/api/cc-suggestions/vitals/dismiss', { json: { cardIds: one.cardIds } });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ ok: true, category: 'vitals', cardIds: [...one.cardIds].sort() });
    expect(await suggestions()).toEqual([]);

    const home = s.home;
    await s.close({ keepHome: true });
    s = await startServer({ home });
    expect(await suggestions()).toEqual([]);
    expect(fs.existsSync(path.join(s.dataDir, '_meta', 'cc-suggestions-dismissed.json'))).toBe(true);

    await add('heart-rate-resting');
    const again = await suggestions();
    expect(again.map((x: { cardIds: string[] }) => x.cardIds.length)).toEqual([4]);
  });

  it('does not count the cards a combination card already shows', async () => {
    const made = await s.api('/api/manifests', {
      json: {
        $schema: 'klebb.datafile.v1',
        meta: {
          id: 'vitals-combined',
          label: 'Vitals',
          category: 'vitals',
          view: {
            enabled: true,
            component: 'combination-card',
            combines: [
              { sourceId: 'bp', role: 'primary' },
              { sourceId: 'spo2', role: 'secondary' },
            ],
          },
        },
      },
    });
    expect(made.status).toBe(201);
    expect(await suggestions()).toEqual([]);
    await s.api('/api/manifests/vitals-combined', { method: 'DELETE' });
  });

  it('refuses a dismissal naming no cards or an unknown category, recording nothing', async () => {
    const before = await suggestions();
    const none = await s.api('/api/cc-suggestions/vitals/dismiss', { json: {} });
    expect(none.status).toBe(400);
    expect(none.body.details).toEqual([{ path: 'body.cardIds', message: 'is required' }]);
    const bad = await s.api('/api/cc-suggestions/vitals/dismiss', { json: { cardIds: [1] } });
    expect(bad.status).toBe(400);
    expect(bad.body.details[0].path).toBe('body.cardIds');
    const unknown = await s.api('/api/cc-suggestions/gardening/dismiss', { json: { cardIds: ['bp'] } });
    expect(unknown.status).toBe(404);
    expect(await suggestions()).toEqual(before);
  });
});

describe('the staleness nudge', () => {
  const findings = async () => (await s.api('/api/hygiene')).body.findings;

  it('reports a card with a cadence not logged for longer, with its label and age', async () => {
    // weight expects an entry every 3 days; its last one is 6 days old
    const today = todayIn(s.inst.user.timeZone());
    for (const back of [8, 7, 6]) {
      const r = await s.api('/api/manifests/weight/rows', {
        json: { value: { date: addDays(today, -back), kg: 80 } },
      });
      expect(r.status).toBe(201);
    }
    // mood declares a cadence too but has no entries: never reported
    const list = await findings();
    expect(list).toEqual([
      expect.objectContaining({
        cardId: 'weight',
        kind: 'stale',
        label: 'Body weight',
        emoji: '⚖️',
        ageDays: 6,
        expectDays: 3,
        severity: 'info',
      }),
    ]);
  });

  it('remembers a dismissal across a restart', async () => {
    const r = await s.api('/api/hygiene/weight/dismiss', { json: {} });
    expect(r.body).toEqual({ ok: true, cardId: 'weight', kind: 'stale' });
    expect(await findings()).toEqual([]);
    const home = s.home;
    await s.close({ keepHome: true });
    s = await startServer({ home });
    expect(await findings()).toEqual([]);
    const stored = JSON.parse(
      fs.readFileSync(path.join(s.dataDir, '_meta', 'hygiene-dismissed.json'), 'utf8'),
    );
    expect(stored).toEqual(['weight::stale']);
  });

  it('a card deleted in the app takes its dismissals with it: the same card added again is nudged', async () => {
    expect(await findings()).toEqual([]);
    // another card's dismissal is kept
    expect((await s.api('/api/hygiene/bp/dismiss', { json: {} })).status).toBe(200);
    const del = await s.api('/api/manifests/weight', { method: 'DELETE' });
    expect(del.status, del.text).toBe(200);
    const stored = JSON.parse(
      fs.readFileSync(path.join(s.dataDir, '_meta', 'hygiene-dismissed.json'), 'utf8'),
    );
    expect(stored).toEqual(['bp::stale']);
    // the new weight card goes quiet too: its nudge shows, not the old card's dismissal
    await add('weight');
    const today = todayIn(s.inst.user.timeZone());
    for (const back of [9, 8, 7]) {
      const r = await s.api('/api/manifests/weight/rows', {
        json: { value: { date: addDays(today, -back), kg: 81 } },
      });
      expect(r.status).toBe(201);
    }
    expect(await findings()).toEqual([
      expect.objectContaining({ cardId: 'weight', kind: 'stale', ageDays: 7 }),
    ]);
  });

  it('refuses an unknown card or kind, naming it', async () => {
    const unknown = await s.api('/api/hygiene/no-such-card/dismiss', { json: {} });
    expect(unknown.status).toBe(404);
    const kind = await s.api('/api/hygiene/bp/dismiss', { json: { kind: 'boring' } });
    expect(kind.status).toBe(400);
    expect(kind.body.details).toEqual([
      { path: 'body.kind', message: 'must be stale, growth or orphaned-input' },
    ]);
  });
});
