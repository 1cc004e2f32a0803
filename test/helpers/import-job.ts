/**
 * Helpers of restore and import tests: a server with a card and a snapshot to start from, and
 * waiting for the import, restore or roll back a test started (GET /api/import/status asked
 * every 20 ms until the job is no longer applying).
 */
import { startServer, type TestServer } from './server.js';

/** What GET /api/import/status answers, as far as tests read it (`error` only when it failed). */
export interface ImportJobStatus {
  state: string;
  kind: string;
  snapshot: string;
  error: { code: string; message: string };
  [field: string]: unknown;
}

/**
 * The job's status once it stopped applying.
 * @throws when it still applies after about 20 seconds.
 */
export async function importJobEnd(s: TestServer, token: string): Promise<ImportJobStatus> {
  for (let i = 0; i < 1000; i++) {
    const st = await s.api('/api/import/status', { token });
    if (st.body.state !== 'applying') return st.body;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error('the job never finished');
}

/**
 * A server (agent token `token`) holding one card `w` with one row, and a manual snapshot taken
 * of it: what a restore test starts from.
 * @returns the server and the snapshot's name.
 */
export async function serverWithSnapshot(token: string): Promise<{ s: TestServer; snapshot: string }> {
  const s = await startServer({ env: { AGENT_API_TOKEN: token } });
  const r = await s.api('/api/manifests', {
    token,
    json: {
      $schema: 'klebb.datafile.v1',
      meta: { id: 'w', label: 'W' },
      data: [{ date: '2026-04-01', kg: 80 }],
    },
  });
  if (r.status !== 201) throw new Error(`the card was not created: ${r.status} ${r.text}`);
  const snap = await s.api('/api/backups', { token, method: 'POST' });
  if (snap.status !== 201) throw new Error(`the snapshot was not taken: ${snap.status} ${snap.text}`);
  return { s, snapshot: snap.body.snapshot.name as string };
}
