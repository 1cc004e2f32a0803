import { readdirSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FIXTURE_DIR, readFixture, type ScriptedGateway, startScriptedGateway } from './scripted-gateway.js';

let gw: ScriptedGateway;
beforeEach(async () => {
  gw = await startScriptedGateway();
});
afterEach(async () => {
  await gw.close();
});

const post = (body: unknown, path = '/v1/chat/completions', init: RequestInit = {}) =>
  fetch(`${gw.origin}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: 'Bearer k' },
    body: JSON.stringify(body),
    ...init,
  });

describe('scripted gateway', () => {
  it('answers buffered JSON or SSE by the request stream flag and records what was sent', async () => {
    gw.script(
      { kind: 'reply', text: 'Hi there', usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 } },
      {
        kind: 'reply',
        text: 'Hi there',
        toolCalls: [{ id: 'call_1', name: 'f', arguments: { a: 1 } }],
        usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 },
      },
    );
    const r1 = await post({ model: 'm', messages: [], stream: false }, '/custom/path?x=1');
    expect(r1.headers.get('content-type')).toBe('application/json');
    const json = await r1.json();
    expect(json.choices[0].message.content).toBe('Hi there');
    expect(json.usage.total_tokens).toBe(5);

    const r2 = await post({
      model: 'm',
      messages: [],
      stream: true,
      stream_options: { include_usage: true },
    });
    expect(r2.headers.get('content-type')).toBe('text/event-stream');
    const text = await r2.text();
    expect(text).toContain('"content":"Hi "');
    expect(text).toContain('"id":"call_1"');
    expect(text).toContain('"finish_reason":"tool_calls"');
    expect(text).toContain('"choices":[],"usage"');
    expect(text.endsWith('data: [DONE]\n\n')).toBe(true);

    expect(gw.requests).toHaveLength(2);
    expect(gw.requests[0]).toMatchObject({
      method: 'POST',
      path: '/custom/path?x=1',
      body: { model: 'm', stream: false },
    });
    expect(gw.requests[0].headers.authorization).toBe('Bearer k');
    expect(gw.remaining).toBe(0);
  });

  it('sends usage in a stream only when the request asked for it', async () => {
    gw.script({ kind: 'reply', text: 'x', usage: { prompt_tokens: 1, completion_tokens: 1 } });
    const text = await (await post({ stream: true })).text();
    expect(text).not.toContain('usage');
  });

  it('serves one of our fixtures byte for byte with the status and content type of its header', async () => {
    gw.script(
      { kind: 'fixture', name: 'reasoning-inline-in-think-tags', split: 'lines' },
      { kind: 'fixture', name: 'stream-options-unknown-parameter' },
    );
    const sse = await post({ stream: true });
    expect(sse.status).toBe(200);
    expect(sse.headers.get('content-type')).toBe('text/event-stream');
    expect(
      Buffer.from(await sse.arrayBuffer()).equals(readFixture('reasoning-inline-in-think-tags').body),
    ).toBe(true);
    const err = await post({});
    expect(err.status).toBe(400);
    expect(
      Buffer.from(await err.arrayBuffer()).equals(readFixture('stream-options-unknown-parameter').body),
    ).toBe(true);
  });

  it('every fixture names the public report it comes from', () => {
    for (const f of readdirSync(FIXTURE_DIR).filter((n) => n.endsWith('.txt'))) {
      const fx = readFixture(f.slice(0, -4));
      expect(fx.source, f).toMatch(/^https:\/\/github\.com\/[^/]+\/[^/]+\/(issues|pull)\/\d+$/);
      expect(fx.title.length, f).toBeGreaterThan(10);
    }
  });

  it('chooses a step from the request when told to', async () => {
    gw.script({ kind: 'decide', choose: (q) => ({ kind: 'reply', text: q.body.messages[0].content }) });
    const r = await post({ messages: [{ role: 'user', content: 'echo me' }] });
    expect((await r.json()).choices[0].message.content).toBe('echo me');
  });

  it('serves HTTP errors with their headers', async () => {
    gw.script({
      kind: 'error',
      status: 429,
      headers: { 'Retry-After': '3' },
      body: { error: { message: 'slow down' } },
    });
    const r = await post({});
    expect(r.status).toBe(429);
    expect(r.headers.get('retry-after')).toBe('3');
    expect((await r.json()).error.message).toBe('slow down');
  });

  it('drops the connection before headers or mid-stream', async () => {
    gw.script({ kind: 'drop' }, { kind: 'drop', afterText: 'partial answer' });
    await expect(post({})).rejects.toThrow();
    const r = await post({ stream: true });
    expect(r.status).toBe(200);
    await expect(r.text()).rejects.toThrow();
  });

  it('stalls after the headers until the client gives up', async () => {
    gw.script({ kind: 'stall' });
    const r = await post({ stream: true }, undefined, { signal: AbortSignal.timeout(300) });
    expect(r.status).toBe(200);
    await expect(r.text()).rejects.toThrow();
  });

  it('delays the headers when asked', async () => {
    gw.script({ kind: 'reply', text: 'late', headersDelayMs: 150 });
    const t0 = Date.now();
    await (await post({})).text();
    expect(Date.now() - t0).toBeGreaterThanOrEqual(140);
  });

  it('answers 500 when the script has no step left', async () => {
    const r = await post({});
    expect(r.status).toBe(500);
    expect((await r.json()).error.message).toMatch(/no step left/);
  });
});
