/**
 * Waiting for the import, restore or roll back a test started: GET /api/import/status is asked
 * every 20 ms until the job is no longer applying.
 */
import type { TestServer } from './server.js';

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
