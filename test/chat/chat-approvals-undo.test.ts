import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentText, type ScriptedGateway, startScriptedGateway } from '../helpers/scripted-gateway.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { postSse, type ReceivedEvent } from '../helpers/sse-client.js';

let gw: ScriptedGateway;
let s: TestServer;
beforeAll(async () => {
  gw = await startScriptedGateway();
  s = await startServer({
    env: { CHAT_ENDPOINT_URL: gw.url, CHAT_API_KEY: 'sk-test', CHAT_MODEL: 'test-model' },
  });
});
afterAll(async () => {
  await s.close();
  await gw.close();
});

const ROWS = [
  { date: '2026-04-18', kg: 80 },
  { date: '2026-04-19', kg: 80.5 },
  { date: '2026-04-20', kg: 81 },
];

/** The newest tool result the model was sent. */
function lastToolResult() {
  const req = gw.requests.findLast((q) => q.body?.messages?.at(-1)?.role === 'tool');
  return JSON.parse(contentText(req?.body.messages.at(-1).content));
}

const user = (content: string) => [{ role: 'user', content }];
const data = async () => (await s.api('/api/manifests/weight/data')).body?.data;
const answer = (id: string, body: Record<string, unknown>) =>
  s.api(`/api/chat/approvals/${id}`, { method: 'POST', json: body });

/**
 * Streams a conversation turn; `onApproval` answers the first `approval` event (its return value
 * is kept for the test to look at).
 */
async function turn(
  conversationId: string,
  text: string,
  onApproval?: (e: ReceivedEvent) => Promise<unknown>,
) {
  let answered: Promise<unknown> | undefined;
  const r = await postSse(
    `${s.url}/api/chat`,
    { messages: user(text), stream: true, conversationId },
    {},
    {
      onEvent: (e) => {
        if (e.event === 'approval' && onApproval && !answered) answered = onApproval(e);
      },
    },
  );
  return { events: r.events, answered: await answered };
}

describe('destructive tool calls wait for approval; their change sets can be undone', () => {
  let conv: string;
  beforeAll(async () => {
    await s.api('/api/manifests', {
      json: {
        $schema: 'klebb.datafile.v1',
        meta: { id: 'weight', label: 'Weight', writeable: { fromWebapp: true } },
        data: ROWS,
      },
    });
    // titled, so no title side-call takes a scripted step
    conv = (await s.api('/api/conversations', { json: { title: 'Approvals' } })).body.conversation.id;
  });

  it('Decline leaves the card and tells the model nothing changed; a replayed answer changes nothing', async () => {
    gw.script(
      { kind: 'reply', toolCalls: [{ id: 'd1', name: 'delete_manifest', arguments: { id: 'weight' } }] },
      { kind: 'reply', text: 'Kept it.' },
    );
    let approval: ReceivedEvent | undefined;
    const { events, answered } = await turn(conv, 'delete my weight card', async (e) => {
      approval = e;
      // the card is still there while the turn waits
      expect((await s.api('/api/manifests/weight')).status).toBe(200);
      return answer(e.data.id, { decision: 'decline', digest: e.data.digest, conversationId: conv });
    });
    expect(approval?.data).toMatchObject({
      conversationId: conv,
      tool: 'delete_manifest',
      summary: 'Delete the card “Weight” and its 3 rows.',
      cardId: 'weight',
    });
    expect((answered as { status: number }).status).toBe(200);
    const names = events.map((e) => e.event);
    expect(names.indexOf('approval')).toBeLessThan(names.indexOf('approval-resolved'));
    expect(events.find((e) => e.event === 'approval-resolved')?.data).toEqual({
      id: approval?.data.id,
      decision: 'declined',
    });
    expect(events.find((e) => e.event === 'reply')?.data).toEqual({ reply: 'Kept it.' });
    expect(await data()).toEqual(ROWS);
    const toolResult = lastToolResult();
    expect(toolResult).toMatchObject({ ok: false, approved: false, decision: 'declined' });

    const replay = await answer(approval?.data.id, {
      decision: 'approve',
      digest: approval?.data.digest,
      conversationId: conv,
    });
    expect(replay.status).toBe(409);
    expect(replay.body.code).toBe('APPROVAL_RESOLVED');
    expect(await data()).toEqual(ROWS);
  });

  it('Approve deletes it, only with the right conversation and digest; Undo brings it back with its rows', async () => {
    gw.script(
      { kind: 'reply', toolCalls: [{ id: 'd2', name: 'delete_manifest', arguments: { id: 'weight' } }] },
      { kind: 'reply', text: 'Deleted.' },
    );
    const { events } = await turn(conv, 'delete it, really', async (e) => {
      const otherConv = await answer(e.data.id, {
        decision: 'approve',
        digest: e.data.digest,
        conversationId: 'another',
      });
      expect(otherConv.body.code).toBe('APPROVAL_MISMATCH');
      const otherCall = await answer(e.data.id, {
        decision: 'approve',
        digest: '0'.repeat(64),
        conversationId: conv,
      });
      expect(otherCall.body.code).toBe('APPROVAL_MISMATCH');
      const bad = await answer(e.data.id, { decision: 'yes', digest: e.data.digest });
      expect(bad.status).toBe(400);
      expect((await s.api('/api/manifests/weight')).status).toBe(200);
      return answer(e.data.id, { decision: 'approve', digest: e.data.digest, conversationId: conv });
    });
    expect(events.find((e) => e.event === 'approval-resolved')?.data.decision).toBe('approved');
    const reply = events.find((e) => e.event === 'reply')?.data;
    expect(reply).toMatchObject({ reply: 'Deleted.', changeSet: { summary: 'Deleted Weight' } });
    expect((await s.api('/api/manifests/weight')).status).toBe(404);
    // the stored reply keeps its change set, so a reloaded panel can still offer Undo
    const stored = (await s.api(`/api/conversations/${conv}`)).body.conversation.messages.at(-1);
    expect(stored.changeSet).toEqual(reply.changeSet);

    const undo = await s.api(`/api/changes/${reply.changeSet.id}/undo`, { method: 'POST' });
    expect(undo.status).toBe(200);
    expect((await s.api('/api/manifests/weight')).body.meta.label).toBe('Weight');
    expect(await data()).toEqual(ROWS);
  });

  it('an undo after a later edit of the same row is 409 and changes nothing', async () => {
    gw.script(
      {
        kind: 'reply',
        toolCalls: [
          {
            id: 'u1',
            name: 'update_row',
            arguments: { id: 'weight', path: '[date="2026-04-20"]', changes: { kg: 82 } },
          },
        ],
      },
      { kind: 'reply', text: 'Changed to 82 kg.' },
    );
    const { events } = await turn(conv, 'make the 20th 82 kg');
    const setId = events.find((e) => e.event === 'reply')?.data.changeSet.id;
    await s.api('/api/manifests/weight/rows', {
      method: 'PATCH',
      json: { path: '[date="2026-04-20"]', changes: { kg: 83 } },
    });
    const before = await data();
    const r = await s.api(`/api/changes/${setId}/undo`, { method: 'POST' });
    expect(r.status).toBe(409);
    expect(r.body.code).toBe('UNDO_CONFLICT');
    expect(r.body.conflicts[0]).toMatchObject({ cardId: 'weight', path: '[date="2026-04-20"]' });
    expect(await data()).toEqual(before);
  });

  it('undo_last_change takes back the previous turn of the chat', async () => {
    gw.script(
      {
        kind: 'reply',
        toolCalls: [
          {
            id: 'a1',
            name: 'append_row',
            arguments: { id: 'weight', value: { date: '2026-04-21', kg: 84 } },
          },
        ],
      },
      { kind: 'reply', text: 'Logged.' },
      { kind: 'reply', toolCalls: [{ id: 'z1', name: 'undo_last_change', arguments: {} }] },
      { kind: 'reply', text: 'Undone.' },
    );
    await turn(conv, 'log 84 for the 21st');
    expect((await data()).at(-1)).toEqual({ date: '2026-04-21', kg: 84 });
    await turn(conv, 'undo that');
    const result = lastToolResult();
    expect(result).toMatchObject({
      ok: true,
      summary: 'Undid: added 1 row to Weight',
    });
    expect((await data()).at(-1)).toEqual({ date: '2026-04-20', kg: 83 });
  });

  it('"undo that" reaches only its own conversation: another conversation or a request without one undoes nothing', async () => {
    gw.script(
      {
        kind: 'reply',
        toolCalls: [
          {
            id: 'a2',
            name: 'append_row',
            arguments: { id: 'weight', value: { date: '2026-04-22', kg: 85 } },
          },
        ],
      },
      { kind: 'reply', text: 'Logged.' },
    );
    await turn(conv, 'log 85 for the 22nd');
    const logged = await data();
    expect(logged.at(-1)).toEqual({ date: '2026-04-22', kg: 85 });
    const other = (await s.api('/api/conversations', { json: { title: 'Other' } })).body.conversation.id;
    gw.script(
      { kind: 'reply', toolCalls: [{ id: 'z2', name: 'undo_last_change', arguments: {} }] },
      { kind: 'reply', text: 'Nothing to undo.' },
    );
    await turn(other, 'undo that');
    expect(lastToolResult().code).toBe('CHANGE_SET_NOT_FOUND');
    gw.script(
      { kind: 'reply', toolCalls: [{ id: 'z3', name: 'undo_last_change', arguments: {} }] },
      { kind: 'reply', text: 'Nothing to undo.' },
    );
    await s.api('/api/chat', { json: { messages: user('undo that') } });
    expect(lastToolResult().code).toBe('CHANGE_SET_NOT_FOUND');
    expect(await data()).toEqual(logged);
  });

  it('a buffered turn without a conversation cannot ask: the tool answers APPROVAL_REQUIRED, nothing changes', async () => {
    gw.script(
      { kind: 'reply', toolCalls: [{ id: 'd3', name: 'delete_manifest', arguments: { id: 'weight' } }] },
      { kind: 'reply', text: 'Please delete it in the app.' },
    );
    const r = await s.api('/api/chat', { json: { messages: user('delete weight') } });
    expect(r.body.reply).toBe('Please delete it in the app.');
    expect(lastToolResult().code).toBe('APPROVAL_REQUIRED');
    expect((await s.api('/api/manifests/weight')).status).toBe(200);
  });

  it('the bearer REST API deletes without an approval (its callers are trusted)', async () => {
    expect((await s.api('/api/manifests/weight', { method: 'DELETE' })).status).toBe(200);
  });
});
