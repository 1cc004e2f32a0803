/**
 * A Python agent script run unmodified except for its TOKEN and BASE lines, against the real
 * server with AGENT_API_TOKEN set: its fetch-merge-write-back upsert must leave exactly one row
 * per date. Used for the script in docs/API.md (`npm test`) and the one of the real-world
 * agent contract (the cases suite).
 *
 * python3 (the first on PATH) with `requests` is a requirement of these tests: missing, they FAIL.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxHome } from './sandbox-home.js';
import { startServer, type TestServer } from './server.js';

const TOKEN = 'python-agent-token-0123456789';

/** Replaces exactly the one `TOKEN = ...` and one `BASE = ...` line; throws if either is not there exactly once. */
export function retarget(code: string, token: string, base: string): string {
  const lines = code.split('\n');
  const swap = (name: string, value: string) => {
    const idx = lines.map((l, i) => (new RegExp(`^${name}\\s*=`).test(l) ? i : -1)).filter((i) => i >= 0);
    if (idx.length !== 1)
      throw new Error(`expected one "${name} = ..." line in the agent, found ${idx.length}`);
    lines[idx[0]] = `${name} = ${JSON.stringify(value)}`;
  };
  swap('TOKEN', token);
  swap('BASE', base);
  return lines.join('\n');
}

function run(
  cmd: string,
  args: string[],
  cwd: string,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    // async spawn: the server answering the script lives in this same process
    const p = spawn(cmd, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    p.stdout.on('data', (c) => (stdout += c));
    p.stderr.on('data', (c) => (stderr += c));
    p.on('error', (err) => resolve({ code: null, stdout, stderr: `${stderr}\n${err.message}` }));
    p.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/**
 * Registers the suite: `readCode` gives the script (with one `TOKEN = ...` and one `BASE = ...`
 * line and a `log_weight(kg, date=None)` function), `weightManifest` the weight card it writes to.
 */
export function pythonAgentSuite(
  title: string,
  readCode: () => string,
  weightManifest: () => Record<string, unknown>,
): void {
  describe(title, () => {
    let s: TestServer;
    const work = sandboxHome('klebb-pyagent-');

    beforeAll(async () => {
      s = await startServer({ env: { AGENT_API_TOKEN: TOKEN } });
    });
    afterAll(async () => {
      await s?.close();
      work.remove();
    });

    it('python3 on PATH has requests', () => {
      const probe = spawnSync('python3', ['-c', 'import requests, sys; print(sys.executable)'], {
        encoding: 'utf8',
      });
      if (probe.error)
        throw new Error(
          `python3 is not on PATH (${probe.error.message}); this test needs python3 with requests`,
        );
      expect(probe.status, `python3 on PATH cannot import requests:\n${probe.stderr}`).toBe(0);
    });

    it('extracts the block and changes only TOKEN and BASE', () => {
      const original = readCode();
      expect(original).toMatch(/^import requests$/m);
      expect(original).toMatch(/^def log_weight\(kg, date=None\):$/m);
      expect(original).toMatch(/requests\.post\(f"\{BASE\}\/api\/manifests\/weight\/data"/);
      const changed = retarget(original, TOKEN, s.url);
      const a = original.split('\n');
      const b = changed.split('\n');
      expect(b).toHaveLength(a.length);
      const diff = a.map((l, i) => (l === b[i] ? null : i)).filter((i) => i !== null);
      expect(diff.map((i) => a[i as number].split('=')[0].trim())).toEqual(['TOKEN', 'BASE']);
    });

    it('upserts weight rows through the API: one row per date, the last write wins', async () => {
      const probe = spawnSync('python3', ['-c', 'import requests'], { encoding: 'utf8' });
      if (probe.error || probe.status !== 0) {
        throw new Error(`python3 with requests is required on PATH: ${probe.error?.message ?? probe.stderr}`);
      }
      const weight = weightManifest();
      const created = await s.api('/api/manifests', { json: { ...weight, data: [] }, token: TOKEN });
      expect(created.status, created.text).toBe(201);
      expect(created.body.id).toBe('weight');

      const script = [
        retarget(readCode(), TOKEN, s.url),
        '',
        'log_weight(85.5, "2026-04-20")',
        'log_weight(86.0, "2026-04-20")',
        'log_weight(84.0, "2026-04-21")',
        '',
      ].join('\n');
      const file = path.join(work.home, 'agent.py');
      fs.writeFileSync(file, script);
      const r = await run('python3', [file], work.home);
      expect(r.code, `the agent failed:\n${r.stderr}\n--- script ---\n${script}`).toBe(0);

      const d = await s.api('/api/manifests/weight/data', { token: TOKEN });
      expect(d.status).toBe(200);
      expect(d.body).toEqual({
        data: [
          { date: '2026-04-20', kg: 86.0 },
          { date: '2026-04-21', kg: 84.0 },
        ],
      });
      // the writes were made as the agent, not as a local caller
      const actors = s.inst.db
        .prepare(`SELECT DISTINCT actor FROM changes WHERE card_id = 'weight' AND op = 'replace'`)
        .pluck()
        .all();
      expect(actors).toEqual(['agent-token']);
    });
  });
}
