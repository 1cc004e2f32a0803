/**
 * Connecting the phone without curl (docs/HEALTH-AUTO-EXPORT.md): the endpoint URL behind a
 * trusted proxy, "Add a card" for a metric the phone sent, the phone-fed cards with what does not
 * fit, and the create/patch refusal of a card that reads a field its metric never sends.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { PhoneFedCard } from '../../src/ingest/hae/card-fit.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { haeBytes, haeCard, type IngestServer, startIngestServer } from './helpers.js';

let s: TestServer | undefined;

/** Starts a server with an HAE token, closed after the test. */
async function ingestServer(): Promise<IngestServer> {
  const srv = await startIngestServer();
  s = srv;
  return srv;
}
afterEach(async () => {
  await s?.close();
  s = undefined;
});

/** A blood oxygen card whose headline, thresholds and chart read `percent` (rows carry `pct`). */
function percentCard(id: string): Record<string, unknown> {
  return haeCard(id, 'blood_oxygen_saturation', {
    view: {
      enabled: true,
      component: 'generic-card',
      display: { template: '{percent:round(0)}', unit: '%', thresholds: [{ ifField: 'percent', max: 91 }] },
    },
    trends: { enabled: true, component: 'line-chart', series: [{ field: 'percent' }] },
  });
}

describe('endpoint URL behind a trusted proxy', () => {
  it('takes the scheme and host the proxy forwards, only from a listed proxy address', async () => {
    // behind a proxy every request looks remote: the agent token signs in
    const token = 'phone-setup-agent-token-0123456789';
    s = await startServer({ env: { KLEBB_TRUSTED_PROXIES: '127.0.0.0/8', AGENT_API_TOKEN: token } });
    const proxied = await s.api('/api/health-auto-export/status', {
      token,
      headers: { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'health.example.org' },
    });
    expect(proxied.body.endpointUrl).toBe('https://health.example.org/api/health-auto-export');
    await s.close();
    // the same headers from an address that is not a listed proxy are ignored
    s = await startServer({ env: { KLEBB_TRUSTED_PROXIES: '10.0.0.1', AGENT_API_TOKEN: token } });
    const direct = await s.api('/api/health-auto-export/status', {
      token,
      headers: { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'evil.example' },
    });
    expect(direct.body.endpointUrl).toBe(`http://localhost:${new URL(s.url).port}/api/health-auto-export`);
  });
});

describe('a card that reads what the phone never sends', () => {
  it('is refused on create with 422 naming where it reads the field, and nothing is written', async () => {
    const h = await ingestServer();
    const r = await h.api('/api/manifests', { json: percentCard('spo2') });
    expect(r.status).toBe(422);
    expect(r.body.error).toContain('"percent"');
    expect(r.body.error).toContain('pct');
    const paths = (r.body.details as { path: string }[]).map((d) => d.path);
    expect(paths).toEqual([
      'meta.view.display.template',
      'meta.view.display.thresholds.0',
      'meta.trends.series.0',
    ]);
    expect(fs.existsSync(path.join(h.dataDir, 'spo2.json'))).toBe(false);
    // reading pct is accepted
    const ok = await h.api('/api/manifests', {
      json: haeCard('spo2', 'blood_oxygen_saturation', {
        view: { enabled: true, component: 'generic-card', display: { template: '{pct}', unit: '%' } },
      }),
    });
    expect(ok.status).toBe(201);
  });

  it('is refused when a unit label names a unit the values are never in', async () => {
    const h = await ingestServer();
    const r = await h.api('/api/manifests', {
      json: haeCard('weight', 'weight_body_mass', {
        view: { enabled: true, component: 'generic-card', display: { template: '{kg}', unit: 'lb' } },
      }),
    });
    expect(r.status).toBe(422);
    expect(r.body.details[0]).toMatchObject({ path: 'meta.view.display.unit' });
    expect(r.body.error).toContain('kg');
  });

  it('is refused on a patch that subscribes a card reading another field; a fallback placeholder is fine', async () => {
    const h = await ingestServer();
    const card = percentCard('spo2') as { meta: Record<string, unknown> };
    const { ingest: _i, ...meta } = card.meta;
    await h.createCard({ ...card, meta });
    const r = await h.api('/api/manifests/spo2', {
      method: 'PATCH',
      json: { meta: { ingest: { source: 'hae', metric: 'blood_oxygen_saturation' } } },
    });
    expect(r.status).toBe(422);
    expect(r.body.details[0].path).toBe('meta.view.display.template');
    const fixed = await h.api('/api/manifests/spo2', {
      method: 'PATCH',
      json: {
        meta: {
          ingest: { source: 'hae', metric: 'blood_oxygen_saturation' },
          view: { display: { template: '{pct} {note|}', thresholds: [{ ifField: 'pct', max: 91 }] } },
          trends: { series: [{ field: 'pct' }] },
        },
      },
    });
    expect(fixed.status).toBe(200);
  });
});

describe('GET /api/health-auto-export/cards', () => {
  it('shows a card on disk that reads another field, and a field the phone does not send this time', async () => {
    // a card written by hand (never validated), and a glucose card reading mg/dL
    s = await startServer({
      before: (_home, dataDir) => {
        fs.mkdirSync(dataDir, { recursive: true });
        fs.writeFileSync(path.join(dataDir, 'spo2.json'), JSON.stringify(percentCard('spo2')));
      },
    });
    await s.api('/api/manifests', {
      json: haeCard('glucose', 'blood_glucose', {
        view: { enabled: true, component: 'generic-card', display: { template: '{mgdl}' } },
      }),
    });
    const token = (await s.api('/api/health-auto-export/token', { method: 'POST' })).body.token as string;
    const push = await s.api('/api/health-auto-export', {
      method: 'POST',
      token,
      json: {
        data: {
          metrics: [
            {
              name: 'blood_glucose',
              units: 'mmol<180.1558800000541>/L',
              data: [{ date: '2026-01-05 08:00:00 +0100', qty: 5.4 }],
            },
            {
              name: 'blood_oxygen_saturation',
              units: '%',
              data: [{ date: '2026-01-05 00:00:00 +0100', qty: 0.97 }],
            },
          ],
        },
      },
    });
    expect(push.body.ingested).toEqual({ spo2: 1, glucose: 1 });
    // the push says it too: in its warnings, and per card in the last push
    expect(push.body.warnings).toContain('card glucose reads mgdl, but its blood_glucose rows carry mmol');
    const last = (await s.api('/api/health-auto-export/status')).body.lastPush;
    expect(last.subscribers.find((c: { id: string }) => c.id === 'glucose').misfits).toEqual([
      { reads: 'mgdl', sends: ['mmol'] },
    ]);
    const cards = (await s.api('/api/health-auto-export/cards')).body.cards as PhoneFedCard[];
    const spo2 = cards.find((c) => c.id === 'spo2');
    expect(spo2).toMatchObject({ metric: 'blood_oxygen_saturation', rowCount: 1, latestDate: '2026-01-05' });
    expect(spo2?.problems.map((p) => [p.reads, p.sends])).toEqual([
      ['percent', ['pct']],
      ['percent', ['pct']],
      ['percent', ['pct']],
    ]);
    const glucose = cards.find((c) => c.id === 'glucose');
    expect(glucose?.problems).toEqual([
      expect.objectContaining({
        kind: 'field',
        reads: 'mgdl',
        sends: ['mmol'],
        where: 'meta.view.display.template',
      }),
    ]);
  });
});

describe('POST /api/health-auto-export/cards (Add a card)', () => {
  it('uses the matching template, fills the card from what was received, and graduates the discovery', async () => {
    const h = await ingestServer();
    const push = await h.push(haeBytes('generated-2026-total-sleep.json'));
    expect(push.body.availableUnsubscribed).toContain('step_count');
    const r = await h.api('/api/health-auto-export/cards', { json: { metric: 'step_count' } });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({
      ok: true,
      id: 'steps',
      template: 'steps',
      metric: 'step_count',
      rowCount: 21,
    });
    const d = (await h.api('/api/health-auto-export/discoveries')).body;
    expect(JSON.stringify(d.undismissed)).not.toContain('step_count');
    // the same metric again is the card that is there; a copy asked for gets a free id
    const again = await h.api('/api/health-auto-export/cards', { json: { metric: 'step_count' } });
    expect(again.status, again.text).toBe(409);
    expect(again.body).toMatchObject({ code: 'CARD_EXISTS', id: 'steps' });
    const copy = await h.api('/api/health-auto-export/cards', { json: { metric: 'step_count', copy: true } });
    expect(copy.body.id).toBe('steps-2');
  });

  it('builds a card from the catalogue when no template is made for the metric', async () => {
    const h = await ingestServer();
    await h.push(haeBytes('generated-2026-total-sleep.json'));
    const r = await h.api('/api/health-auto-export/cards', { json: { metric: 'heart_rate' } });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ id: 'heart-rate', template: null, label: 'Heart rate', rowCount: 21 });
    const m = (await h.api('/api/manifests/heart-rate')).body;
    expect(m.meta.ingest).toEqual({ source: 'hae', metric: 'heart_rate' });
    expect(m.meta.view.display.template).toBe('{avg}');
    const cards = (await h.api('/api/health-auto-export/cards')).body.cards as PhoneFedCard[];
    expect(cards.find((c) => c.id === 'heart-rate')?.problems).toEqual([]);
  });

  it('names the field for bad input and changes nothing', async () => {
    const h = await ingestServer();
    const unknown = await h.api('/api/health-auto-export/cards', { json: { metric: 'steps' } });
    expect(unknown.status).toBe(422);
    expect(unknown.body.details[0].path).toBe('body.metric');
    const missing = await h.api('/api/health-auto-export/cards', { json: {} });
    expect(missing.status).toBe(400);
    expect(missing.text).toContain('metric');
    expect(fs.readdirSync(h.dataDir).filter((f) => f.startsWith('steps'))).toEqual([]);
  });
});
