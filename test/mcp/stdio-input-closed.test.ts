/**
 * A stdio client that writes its requests and closes stdin at once (`printf … | npm run mcp`, a
 * script, a client shutting down after its last call) gets every answer before the process
 * exits: before, the end of stdin closed the home under a tool call still running, the call's
 * answer was never written, and the client could not tell whether its row was stored. The last
 * request may lack its newline (`printf '{...}'` writes none): stdin's end ends its line.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
beforeAll(async () => {
  s = await startServer();
  const card = {
    $schema: 'klebb.datafile.v1',
    meta: { id: 'weight', label: 'Weight', writeable: { fromWebapp: true } },
    data: [],
  };
  expect((await s.api('/api/manifests', { json: card })).status).toBe(201);
});
afterAll(async () => {
  await s.close();
});

/** One line the stdio server wrote. */
interface Answer {
  id?: unknown;
  result?: { isError?: boolean; content: { text: string }[] };
  error?: { code: number; message: string };
}

/** Runs the stdio server on the test home with `input` as its whole stdin; its answered lines. */
function runWithInput(input: string) {
  return new Promise<{ code: number | null; lines: Answer[] }>((resolve, reject) => {
    const proc = spawn(process.execPath, [path.resolve('dist/src/mcp/stdio.js')], {
      env: { HEALTH_HOME: s.home, KLEBB_LOG_LEVEL: 'silent', PATH: process.env.PATH ?? '' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let out = '';
    proc.stdout.on('data', (c: Buffer) => {
      out += c.toString('utf8');
    });
    proc.on('error', reject);
    proc.on('exit', (code) =>
      resolve({
        code,
        lines: out
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l)),
      }),
    );
    proc.stdin.end(input);
  });
}

const line = (m: object) => `${JSON.stringify({ jsonrpc: '2.0', ...m })}\n`;

it('answers the calls sent just before stdin closed, and stores what they wrote once', async () => {
  const input =
    line({
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'pipe', version: '1' } },
    }) +
    line({ method: 'notifications/initialized' }) +
    line({
      id: 2,
      method: 'tools/call',
      params: { name: 'append_row', arguments: { id: 'weight', value: { date: '2024-02-29', kg: 71.5 } } },
    }) +
    line({
      id: 3,
      method: 'tools/call',
      params: { name: 'read_manifest_rows', arguments: { id: 'weight' } },
    });
  const { code, lines } = await runWithInput(input);
  expect(code).toBe(0);
  expect(lines.map((l) => l.id).sort()).toEqual([1, 2, 3]);
  const appended = lines.find((l) => l.id === 2);
  expect(appended?.result?.isError, JSON.stringify(appended)).toBe(false);
  expect(JSON.parse(appended?.result?.content[0].text ?? '{}')).toMatchObject({ ok: true, added: 1 });
  const rows = (await s.api('/api/manifests/weight/data')).body.data;
  expect(rows).toEqual([{ date: '2024-02-29', kg: 71.5 }]);
});

it('exits without waiting out an approval it asked for after stdin closed, nothing deleted', async () => {
  const input =
    line({
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-06-18',
        capabilities: { elicitation: {} },
        clientInfo: { name: 'pipe', version: '1' },
      },
    }) +
    line({ method: 'notifications/initialized' }) +
    line({ id: 2, method: 'tools/call', params: { name: 'delete_manifest', arguments: { id: 'weight' } } });
  const { code, lines } = await runWithInput(input);
  expect(code).toBe(0);
  expect(lines.find((l) => l.id === 1)?.result).toBeDefined();
  expect((await s.api('/api/manifests/weight')).status).toBe(200);
});

it('answers the last request when stdin closes before its newline, and a last line that is no JSON', async () => {
  const init = line({
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'printf', version: '1' } },
  });
  const call = JSON.stringify({
    jsonrpc: '2.0',
    id: 2,
    method: 'tools/call',
    params: { name: 'append_row', arguments: { id: 'weight', value: { date: '2024-03-01', kg: 71.2 } } },
  });
  const { code, lines } = await runWithInput(init + line({ method: 'notifications/initialized' }) + call);
  expect(code).toBe(0);
  const appended = lines.find((l) => l.id === 2);
  expect(appended?.result?.isError, JSON.stringify(lines)).toBe(false);
  const rows = (await s.api('/api/manifests/weight/data')).body.data as { date: string }[];
  expect(rows.filter((r) => r.date === '2024-03-01')).toEqual([{ date: '2024-03-01', kg: 71.2 }]);

  // a broken last line is answered with the parse error, as in the middle of the input
  const broken = await runWithInput(`${init}{"jsonrpc": "2.0", "id": 3, "method": "tools/li`);
  expect(broken.code).toBe(0);
  expect(broken.lines.find((l) => l.id === null)?.error?.code).toBe(-32700);
});
