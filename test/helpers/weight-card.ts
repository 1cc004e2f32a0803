import { expect } from 'vitest';
import type { TestServer } from './server.js';

/**
 * Makes a Weight card `id` through `POST /api/manifests` (one row, 80 kg on 2026-04-01, writable
 * from the web app, past dates allowed) and answers its ETag as `GET /api/manifests/:id` gives it.
 * Fails the test when the server refuses the card.
 */
export async function makeWeightCard(s: TestServer, token: string, id: string): Promise<string> {
  const made = await s.api('/api/manifests', {
    token,
    json: {
      $schema: 'klebb.datafile.v1',
      meta: { id, label: `Weight ${id}`, writeable: { fromWebapp: true, pastAllowed: true } },
      data: [{ date: '2026-04-01', kg: 80 }],
    },
  });
  expect(made.status, made.text).toBe(201);
  const read = await s.api(`/api/manifests/${id}`, { token });
  return read.headers.get('etag') as string;
}
