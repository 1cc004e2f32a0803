/**
 * Sessions of `/mcp` live in memory. After a restart (or a DELETE of the session) a request in
 * the old session is answered 404, so the client starts a new one; an initialize that still
 * carries the old Mcp-Session-Id (many clients keep it) starts that new session instead of being
 * answered 404 for ever. An initialize naming another caller's live session starts a session of
 * its own and leaves theirs alone.
 */
import fs from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';

const T = 'mcp-restart-token';
const servers: TestServer[] = [];
let home = '';
afterAll(async () => {
  for (const srv of servers) await srv.close({ keepHome: true });
  if (home) fs.rmSync(home, { recursive: true, force: true });
});

const init = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
};
const list = { jsonrpc: '2.0', id: 2, method: 'tools/list' };

async function post(srv: TestServer, body: unknown, session?: string, token = T) {
  const r = await fetch(`${srv.url}/mcp`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      accept: 'application/json, text/event-stream',
      'content-type': 'application/json',
      ...(session ? { 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' } : {}),
    },
    body: JSON.stringify(body),
  });
  return { status: r.status, session: r.headers.get('mcp-session-id') ?? '', text: await r.text() };
}

describe('an MCP session that the server no longer knows', () => {
  it('after a restart: a request is 404, an initialize carrying the old id starts a new session', async () => {
    const first = await startServer({ env: { AGENT_API_TOKEN: T } });
    servers.push(first);
    home = first.home;
    const old = (await post(first, init)).session;
    expect((await post(first, list, old)).status).toBe(200);
    await first.close({ keepHome: true });
    servers.pop();
    const second = await startServer({ home, env: { AGENT_API_TOKEN: T } });
    servers.push(second);
    const stale = await post(second, list, old);
    expect(stale.status).toBe(404);
    expect(JSON.parse(stale.text).error.data.code).toBe('MCP_SESSION_NOT_FOUND');
    const again = await post(second, init, old);
    expect(again.status, again.text).toBe(200);
    expect(again.session).not.toBe('');
    expect(again.session).not.toBe(old);
    const listed = await post(second, list, again.session);
    expect(listed.status, listed.text).toBe(200);
    expect(listed.text).toContain('read_manifest_meta');
  });

  it('after a DELETE the same holds, and another caller cannot take over a live session', async () => {
    const srv = servers[0];
    const mine = (await post(srv, init)).session;
    const del = await fetch(`${srv.url}/mcp`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${T}`, 'mcp-session-id': mine },
    });
    expect(del.status).toBe(200);
    expect((await post(srv, list, mine)).status).toBe(404);
    const renewed = await post(srv, init, mine);
    expect(renewed.status, renewed.text).toBe(200);
    expect(renewed.session).not.toBe(mine);

    const { secret } = srv.inst.auth.tokens.create('other', 'read');
    const theirs = await post(srv, init, renewed.session, secret);
    expect(theirs.status, theirs.text).toBe(200);
    expect(theirs.session).not.toBe(renewed.session);
    expect((await post(srv, list, renewed.session)).status).toBe(200);
    expect((await post(srv, list, renewed.session, secret)).status).toBe(404);
  });
});
