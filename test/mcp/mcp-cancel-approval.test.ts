/**
 * A tool call the client cancels (`notifications/cancelled`) while the person is being asked to
 * approve it changes nothing, whatever the person answers afterwards: the question is withdrawn
 * and a late "accept" does not delete the card.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';

const T = 'mcp-cancel-token';
let s: TestServer;
beforeAll(async () => {
  s = await startServer({ env: { AGENT_API_TOKEN: T } });
});
afterAll(async () => s?.close());

async function makeCard(id: string) {
  const r = await s.api('/api/manifests', {
    token: T,
    json: {
      $schema: 'klebb.datafile.v1',
      meta: { id, label: id, writeable: { fromWebapp: true } },
      data: [],
    },
  });
  expect(r.status, r.text).toBe(201);
}

/** A client whose approvals wait until `answer` is called; `asked` resolves when it is asked. */
async function slowApprover() {
  let answer: (action: 'accept' | 'decline') => void = () => {};
  let signalAsked: () => void = () => {};
  const nextAsked = () =>
    new Promise<void>((r) => {
      signalAsked = r;
    });
  let asked = nextAsked();
  let signalWithdrawn: () => void = () => {};
  const withdrawn = new Promise<void>((r) => {
    signalWithdrawn = r;
  });
  const client = new Client({ name: 'test', version: '1.0.0' }, { capabilities: { elicitation: {} } });
  client.setRequestHandler(ElicitRequestSchema, (_req, extra) => {
    extra.signal.addEventListener('abort', () => signalWithdrawn());
    signalAsked();
    asked = nextAsked();
    return new Promise((resolve) => {
      answer = (action) => resolve({ action, content: {} });
    });
  });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${T}` } },
    }),
  );
  return {
    client,
    get asked() {
      return asked;
    },
    answer: (a: 'accept' | 'decline') => answer(a),
    withdrawn,
  };
}

describe('a tool call cancelled while its approval is asked', () => {
  it('changes nothing, even when the person accepts afterwards', async () => {
    await makeCard('keepme');
    const c = await slowApprover();
    // a first question, declined (the SDK's client ignores a cancellation of request id 0, the
    // id of the server's first question, so the withdrawal is checked on a second one)
    const first = c.client.callTool({ name: 'delete_manifest', arguments: { id: 'keepme' } });
    await c.asked;
    c.answer('decline');
    await first;
    const ac = new AbortController();
    const call = c.client
      .callTool({ name: 'delete_manifest', arguments: { id: 'keepme' } }, undefined, { signal: ac.signal })
      .then(
        () => 'answered',
        () => 'cancelled',
      );
    await c.asked;
    ac.abort('the person closed the dialog');
    expect(await call).toBe('cancelled');
    // the person's late yes reaches the server
    c.answer('accept');
    // a request after it on the same session is answered only after the answer was read
    await c.client.ping();
    await c.client.listTools();
    expect((await s.api('/api/manifests/keepme', { token: T })).status).toBe(200);
    // the question was withdrawn from the client (the server cancelled its elicitation)
    await c.withdrawn;
    const history = await s.api('/api/changes?card=keepme', { token: T });
    expect(JSON.stringify(history.body)).not.toContain('Deleted');
    await c.client.close();
  });

  it('a call that is not cancelled still deletes once accepted', async () => {
    await makeCard('goodbye');
    const c = await slowApprover();
    const call = c.client.callTool({ name: 'delete_manifest', arguments: { id: 'goodbye' } });
    await c.asked;
    c.answer('accept');
    const r = (await call) as { content: { text: string }[] };
    expect(JSON.parse(r.content[0].text)).toMatchObject({ ok: true, removed: true });
    expect((await s.api('/api/manifests/goodbye', { token: T })).status).toBe(404);
    await c.client.close();
  });
});
