/**
 * A push from the phone fills a day whose row a person wrote by hand another way than YYYY-MM-DD
 * (`2023/03/01`, `1.3.2023`): the row of that day is replaced, not joined by a second one.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { dayOfDateTime } from '../../src/common/dates.js';
import { haeBytes, haeCard, type IngestServer, startIngestServer } from './helpers.js';

/** Ten weigh-ins from 2023-03-01 to 2023-03-28, among other metrics. */
const MAR2023 = 'generated-2023-v1-kg.json';

let s: IngestServer;
beforeAll(async () => {
  s = await startIngestServer();
});
afterAll(async () => {
  await s.close();
});

it.each(['2023/03/01', '2023-3-1', '1.3.2023'])('a row dated %s is the row of its day', async (date) => {
  const id = `w${date.replace(/\D/g, '')}`;
  // writeable, so the test can store the hand-written rows directly
  await s.createCard(haeCard(id, 'weight_body_mass', { writeable: { fromWebapp: true } }));
  const put = await s.api(`/api/manifests/${id}/data`, {
    json: { data: [{ date, kg: 99, note: 'by hand' }] },
  });
  expect(put.status, put.text).toBe(200);
  expect((await s.push(haeBytes(MAR2023))).status).toBe(200);
  const days = (await s.rows(id)).map((r) => dayOfDateTime(r.date));
  expect(days.filter((d) => d === '2023-03-01')).toHaveLength(1);
  expect(new Set(days).size).toBe(days.length);
});
