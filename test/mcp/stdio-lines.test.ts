/**
 * Over stdio, a line of JSON that is not one JSON-RPC 2.0 message (no "jsonrpc", a request
 * without a method, a batch) is answered -32600 (invalid request), repeating its id when it has
 * one, as `/mcp` answers such a body; before, the SDK dropped it without a word and the client
 * waited for ever. The server keeps serving the next line.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
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

interface Line {
  id: unknown;
  error?: { code: number; message: string };
  result?: { tools?: unknown[] };
}

/** The stdio server on the test home, and the lines it has answered so far. */
function stdioServer() {
  const proc: ChildProcessWithoutNullStreams = spawn(
    process.execPath,
    [path.resolve('dist/src/mcp/stdio.js')],
    {
      env: { HEALTH_HOME: s.home, KLEBB_LOG_LEVEL: 'silent', PATH: process.env.PATH ?? '' },
      stdio: ['pipe', 'pipe', 'pipe'],
    },
  );
  const lines: Line[] = [];
  let buf = '';
  proc.stdout.on('data', (chunk: Buffer) => {
    buf += chunk.toString('utf8');
    for (let nl = buf.indexOf('\n'); nl >= 0; nl = buf.indexOf('\n')) {
      lines.push(JSON.parse(buf.slice(0, nl)));
      buf = buf.slice(nl + 1);
    }
  });
  /** Writes `text` and waits until `n` lines have been answered in all. */
  const send = (text: string | Buffer, n: number) =>
    new Promise<void>((resolve) => {
      proc.stdin.write(text);
      const check = () => (lines.length >= n ? resolve() : setTimeout(check, 20));
      check();
    });
  const stop = () =>
    new Promise<void>((resolve) => {
      proc.once('exit', () => resolve());
      proc.stdin.end();
    });
  return { lines, send, stop };
}

const initialize = `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } })}\n`;
const toolsList = (id: number) => `${JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/list' })}\n`;

describe('a line of JSON that is not a JSON-RPC message, over stdio', () => {
  it('is answered -32600 with its id (null when it has none), and the next request is answered', async () => {
    const srv = stdioServer();
    await srv.send(initialize, 1);
    const bad: [string, unknown][] = [
      ['{"id":2,"method":"tools/list"}', 2],
      ['{"jsonrpc":"1.0","id":"x","method":"tools/list"}', 'x'],
      ['{"jsonrpc":"2.0","id":4}', 4],
      ['[{"jsonrpc":"2.0","id":5,"method":"ping"}]', null],
      ['42', null],
    ];
    for (const [i, [text, id]] of bad.entries()) {
      await srv.send(`${text}\n`, 2 + i);
      expect(srv.lines[1 + i], text).toMatchObject({ jsonrpc: '2.0', id, error: { code: -32600 } });
    }
    await srv.send(toolsList(9), 2 + bad.length);
    const last = srv.lines[1 + bad.length];
    expect(last.id).toBe(9);
    expect(Array.isArray(last.result?.tools)).toBe(true);
    await srv.stop();
  });
});

describe('a byte order mark before a line, over stdio', () => {
  it('is skipped: the first line, a later one and CRLF-ended ones are answered as without it', async () => {
    const srv = stdioServer();
    const bom = Buffer.from([0xef, 0xbb, 0xbf]);
    await srv.send(Buffer.concat([bom, Buffer.from(initialize)]), 1);
    expect(srv.lines[0]).toMatchObject({ id: 1, result: { protocolVersion: '2025-06-18' } });
    await srv.send(`\uFEFF${toolsList(2).replace('\n', '\r\n')}`, 2);
    expect(srv.lines[1].id).toBe(2);
    expect(Array.isArray(srv.lines[1].result?.tools)).toBe(true);
    await srv.send(toolsList(3), 3);
    expect(srv.lines[2].id).toBe(3);
    await srv.stop();
  });
});

describe('a line longer than a message may be, over stdio', () => {
  it('is answered -32600 once it ends, and the next request is answered', async () => {
    const srv = stdioServer();
    await srv.send(initialize, 1);
    const filler = 'é'.repeat(6 * 1024 * 1024); // 12 MB of UTF-8, past the 10 MB limit
    const big = JSON.stringify({
      jsonrpc: '2.0',
      id: 7,
      method: 'tools/call',
      params: { name: 'read_doc', arguments: { name: filler } },
    });
    await srv.send(`${big}\n`, 2);
    expect(srv.lines[1]).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
    expect(srv.lines[1].error?.message).toMatch(/longer than 10485759 bytes/);
    await srv.send(toolsList(8), 3);
    expect(srv.lines[2].id).toBe(8);
    expect(Array.isArray(srv.lines[2].result?.tools)).toBe(true);
    await srv.stop();
  });
});
