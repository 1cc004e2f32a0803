import net from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readCaseBytes, type ScriptedGateway, startScriptedGateway } from './scripted-gateway.js';

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

/** Sends a minimal POST over a raw socket and returns every byte the server wrote. */
function rawExchange(port: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const body = '{"stream":false}';
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.write(
        `POST /x HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
      );
    });
    const parts: Buffer[] = [];
    socket.on('data', (c) => parts.push(c));
    socket.on('end', () => resolve(Buffer.concat(parts)));
    socket.on('error', reject);
  });
}

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

  it('serves an HTTP/1.1 case file byte for byte on the socket', async () => {
    gw.script({ kind: 'raw', caseId: 'G22' });
    const received = await rawExchange(Number(new URL(gw.origin).port));
    expect(received.equals(readCaseBytes('G22'))).toBe(true);
  });

  it('serves a body-only case file with the README status and content type, bytes unchanged', async () => {
    gw.script({ kind: 'raw', caseId: 'G24', split: 'events' }, { kind: 'raw', caseId: 'G11' });
    const sse = await post({ stream: true });
    expect(sse.status).toBe(200);
    expect(sse.headers.get('content-type')).toBe('text/event-stream');
    expect(Buffer.from(await sse.arrayBuffer()).equals(readCaseBytes('G24'))).toBe(true);
    const err = await post({});
    expect(err.status).toBe(400);
    expect(Buffer.from(await err.arrayBuffer()).equals(readCaseBytes('G11'))).toBe(true);
  });

  it('strips only the title line and the blank line from a case file', () => {
    const g27 = readCaseBytes('G27').toString('utf8');
    expect(g27.startsWith('id: 1\n')).toBe(true);
    expect(g27.endsWith('"argu')).toBe(true);
    expect(readCaseBytes('G24').includes(Buffer.from('\r\n'))).toBe(true);
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
