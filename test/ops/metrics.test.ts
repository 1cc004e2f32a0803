/**
 * `GET /metrics` for operators: behind the admin token (401 without it, 401 with another token),
 * Prometheus text that counts requests by route template and status, chat turns by how they
 * ended (a model endpoint failure also by kind), Health Auto Export pushes by outcome and bytes,
 * the database's size, and Node's event-loop delay.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { chatServers } from '../helpers/chat-server.js';

const ADMIN = 'admin-token-for-metrics-0123456789';
const AGENT = 'agent-token-for-metrics-0123456789';
const chat = chatServers({ KLEBB_ADMIN_TOKEN: ADMIN, AGENT_API_TOKEN: AGENT });
afterEach(() => chat.closeAll());

/** The value of one series, or undefined when it is absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    const lbl = /\{(.*)\}/.exec(line)?.[1] ?? '';
    if (Object.entries(labels).every(([k, v]) => lbl.includes(`${k}="${v}"`)))
      return Number(line.split(' ').at(-1));
  }
  return undefined;
}

describe('GET /metrics', () => {
  it('answers only the admin token', async () => {
    const { s } = await chat.boot();
    expect((await s.api('/metrics', { token: 'nope' })).status).toBe(401);
    expect((await s.api('/metrics', { token: AGENT })).status).toBe(401);
    const ok = await s.api('/metrics', { token: ADMIN });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-type')).toContain('text/plain');
  });

  it('counts requests by route template, chat turns by end, pushes, and reads the database size', async () => {
    const { s, gw } = await chat.boot();
    for (let i = 0; i < 3; i++) expect((await s.api('/api/manifests', { token: AGENT })).status).toBe(200);
    expect((await s.api('/api/manifests/no-such-card', { token: AGENT })).status).toBe(404);

    gw.script({ kind: 'reply', text: 'Hello there.' });
    expect(
      (await s.api('/api/chat', { token: AGENT, json: { messages: [{ role: 'user', content: 'hi' }] } }))
        .status,
    ).toBe(200);
    gw.script(
      { kind: 'error', status: 500, body: '{"error":{"message":"upstream exploded"}}' },
      { kind: 'error', status: 500, body: '{"error":{"message":"upstream exploded"}}' },
      { kind: 'error', status: 500, body: '{"error":{"message":"upstream exploded"}}' },
    );
    await s.api('/api/chat', { token: AGENT, json: { messages: [{ role: 'user', content: 'hi again' }] } });

    const hae = await s.api('/api/health-auto-export/token', { method: 'POST', token: AGENT });
    expect(hae.status).toBe(201);
    const push = JSON.stringify({
      data: {
        metrics: [
          { name: 'step_count', units: 'count', data: [{ date: '2026-11-30 08:00:00 +0100', qty: 1200 }] },
        ],
      },
    });
    expect(
      (
        await s.api('/api/health-auto-export', {
          token: hae.body.token,
          body: push,
          headers: { 'content-type': 'application/json' },
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await s.api('/api/health-auto-export', {
          token: 'wrong',
          body: push,
          headers: { 'content-type': 'application/json' },
        })
      ).status,
    ).toBe(401);

    const text = (await s.api('/metrics', { token: ADMIN })).text;
    expect(
      sample(text, 'klebb_http_requests_total', { route: '/api/manifests', method: 'GET', status: '200' }),
    ).toBe(3);
    expect(sample(text, 'klebb_http_requests_total', { route: '/api/manifests/:id', status: '404' })).toBe(1);
    expect(text).not.toContain('no-such-card');
    expect(sample(text, 'klebb_chat_turns_total', { reason: 'answered' })).toBe(1);
    expect(sample(text, 'klebb_chat_turns_total', { reason: 'gateway_error' })).toBe(1);
    expect(text).toMatch(/klebb_chat_gateway_errors_total\{kind="[^"]+"\} 1/);
    expect(sample(text, 'klebb_chat_turn_duration_seconds_count', { reason: 'answered' })).toBe(1);
    expect(sample(text, 'klebb_hae_pushes_total', { outcome: 'stored' })).toBe(1);
    expect(sample(text, 'klebb_hae_pushes_total', { outcome: 'refused' })).toBe(1);
    expect(sample(text, 'klebb_hae_push_bytes_total')).toBe(Buffer.byteLength(push) * 2);
    expect(sample(text, 'klebb_database_bytes')).toBeGreaterThan(0);
    expect(sample(text, 'klebb_nodejs_eventloop_lag_seconds')).toBeGreaterThanOrEqual(0);
    expect(sample(text, 'klebb_process_resident_memory_bytes')).toBeGreaterThan(0);
  });
});
