// 'unavailable': 5xx, HTML bodies, refused or reset connections.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { callGateway } from '../../src/chat/gateway/client.js';
import { type ScriptedGateway, startScriptedGateway } from '../helpers/scripted-gateway.js';
import { configFor, gatewayFailure, userSays } from './support.js';

let gw: ScriptedGateway;
beforeEach(async () => {
  gw = await startScriptedGateway();
});
afterEach(() => gw.close());

it('a 502 with an HTML body is unavailable and retryable, the HTML reduced to its title', async () => {
  gw.script({
    kind: 'error',
    status: 502,
    headers: { 'Content-Type': 'text/html' },
    body: '<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body></html>',
  });
  const err = await gatewayFailure(callGateway(configFor(gw.url), { messages: userSays('x') }));
  expect(err).toMatchObject({ kind: 'unavailable', reason: 'html', retryable: true, upstreamStatus: 502 });
  expect(err.message).toBe('gateway HTTP 502: 502 Bad Gateway');
});

it('a 503 with a JSON body is unavailable and honours its Retry-After', async () => {
  gw.script({
    kind: 'error',
    status: 503,
    headers: { 'Retry-After': '2' },
    body: { error: { message: 'overloaded' } },
  });
  const err = await gatewayFailure(callGateway(configFor(gw.url), { messages: userSays('x') }));
  expect(err).toMatchObject({ kind: 'unavailable', retryAfterMs: 2000, retryable: true });
  expect(err.message).toBe('gateway HTTP 503: overloaded');
});

it('a 200 with an HTML page (endpoint URL points at a website) is unavailable, not a parse crash', async () => {
  gw.script({
    kind: 'error',
    status: 200,
    headers: { 'Content-Type': 'text/html' },
    body: '<html><title>Welcome</title></html>',
  });
  const err = await gatewayFailure(
    callGateway(configFor(gw.url, { maxRetries: 2, retryBaseDelayMs: 1 }), { messages: userSays('x') }),
  );
  expect(err).toMatchObject({ kind: 'unavailable', reason: 'html', retryable: false });
  expect(gw.requests, 'the same page would come again: not asked twice').toHaveLength(1);
});

it('a 200 that is neither JSON nor SSE, or JSON without choices, is a parse error', async () => {
  gw.script(
    { kind: 'error', status: 200, body: '{"id":"x","object":"chat.completion"' },
    { kind: 'error', status: 200, body: { id: 'x', object: 'chat.completion' } },
  );
  const cfg = configFor(gw.url);
  expect((await gatewayFailure(callGateway(cfg, { messages: userSays('x') }))).kind).toBe('parse');
  expect((await gatewayFailure(callGateway(cfg, { messages: userSays('x') }))).kind).toBe('parse');
});

it('connection refused is unavailable', async () => {
  const probe = http.createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((r) => probe.close(() => r()));
  const err = await gatewayFailure(
    callGateway(configFor(`http://127.0.0.1:${port}/v1/chat/completions`), { messages: userSays('x') }),
  );
  expect(err).toMatchObject({ kind: 'unavailable', reason: 'connection_refused', retryable: true });
});

it('a connection dropped before any response is unavailable, and retried when allowed', async () => {
  gw.script({ kind: 'drop' }, { kind: 'drop' }, { kind: 'reply', text: 'third time' });
  const cfg = configFor(gw.url);
  const err = await gatewayFailure(callGateway(cfg, { messages: userSays('x') }));
  expect(err).toMatchObject({ kind: 'unavailable', reason: 'connection_reset', retryable: true });
  const result = await callGateway(
    { ...cfg, maxRetries: 1, retryBaseDelayMs: 1 },
    { messages: userSays('x') },
  );
  expect(result.text).toBe('third time');
});

it('an empty 200 body is unavailable; a well-formed reply with no text and no call is empty', async () => {
  gw.script(
    { kind: 'error', status: 200, body: '' },
    { kind: 'reply', text: '' },
    { kind: 'reply', text: '  \n' },
  );
  const cfg = configFor(gw.url);
  expect((await gatewayFailure(callGateway(cfg, { messages: userSays('x') }))).kind).toBe('unavailable');
  expect((await gatewayFailure(callGateway(cfg, { messages: userSays('x') }))).kind).toBe('empty');
  const blank = await gatewayFailure(callGateway(cfg, { messages: userSays('x'), stream: true }));
  expect(blank).toMatchObject({ kind: 'empty', code: 'GATEWAY_ERROR' });
});
