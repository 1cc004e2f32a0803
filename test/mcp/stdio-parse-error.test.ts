/**
 * Over stdio, a line that is not JSON (a typo, a half-written message) is answered with the
 * JSON-RPC parse error (-32700, id null) on stdout, as the HTTP endpoint answers one; before, it
 * was dropped without a word, so a client waited for an answer that never came. The server
 * keeps serving the next line.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';

let s: TestServer;
beforeAll(async () => {
  s = await startServer();
});
afterAll(async () => {
  await s.close();
});

describe('a line that is not JSON over stdio', () => {
  it('is answered -32700 with id null, and the next request is answered', async () => {
    const proc = spawn(process.execPath, [path.resolve('dist/src/mcp/stdio.js')], {
      env: { HEALTH_HOME: s.home, KLEBB_LOG_LEVEL: 'silent', PATH: process.env.PATH ?? '' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const lines: { id: unknown; error?: { code: number; message: string }; result?: { tools: unknown } }[] =
      [];
    let buf = '';
    const got = (n: number) =>
      new Promise<void>((resolve) => {
        const check = () => (lines.length >= n ? resolve() : setTimeout(check, 20));
        check();
      });
    proc.stdout.on('data', (chunk: Buffer) => {
      buf += chunk.toString('utf8');
      for (let nl = buf.indexOf('\n'); nl >= 0; nl = buf.indexOf('\n')) {
        lines.push(JSON.parse(buf.slice(0, nl)));
        buf = buf.slice(nl + 1);
      }
    });
    proc.stdin.write(
      `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } })}\n`,
    );
    await got(1);
    proc.stdin.write('{"jsonrpc":"2.0","id":2,"method":"tools/list"\n');
    await got(2);
    expect(lines[1]).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });
    expect(lines[1].error?.message).toMatch(/not JSON/);
    proc.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/list' })}\n`);
    await got(3);
    expect(lines[2].id).toBe(3);
    expect(Array.isArray(lines[2].result?.tools)).toBe(true);
    await new Promise<void>((resolve) => {
      proc.once('exit', () => resolve());
      proc.stdin.end();
    });
  });
});
