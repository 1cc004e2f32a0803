/**
 * A page that stops reading its live feed (`GET /api/events`; a phone asleep with its connection
 * open) against the real server: events must not pile up in the server's memory for it. Once
 * about a megabyte waits for it, its stream ends with a `: closed: …` comment (it reconnects and
 * re-reads), it is counted in /metrics, and a page that does read still gets every event.
 *
 * The stalled page is a raw socket that sends the request and then never reads; the kernel's
 * socket buffers take the first megabytes, so many more events are sent than the limit.
 */
import net from 'node:net';
import { createParser } from 'eventsource-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SLOW_CLIENT_COMMENT } from '../../src/http/sse.js';
import { startServer, type TestServer } from '../helpers/server.js';

const ADMIN = 'admin-token-for-slow-clients-0123456789';
/** Events sent while the page does not read: about 12 MB of `data-changed` events. */
const EVENTS = 120_000;

let s: TestServer;
beforeAll(async () => {
  s = await startServer({ env: { KLEBB_ADMIN_TOKEN: ADMIN } });
});
afterAll(async () => {
  await s?.close();
});

/** Opens the feed on a raw socket, waits for its `ready`, then stops reading. */
async function stalledPage(): Promise<{ socket: net.Socket; head: string }> {
  const { port } = new URL(s.url);
  const socket = net.connect(Number(port), '127.0.0.1');
  socket.write(`GET /api/events HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAccept: text/event-stream\r\n\r\n`);
  let head = '';
  await new Promise<void>((resolve, reject) => {
    const onData = (b: Buffer) => {
      head += b.toString('latin1');
      if (!head.includes('event: ready')) return;
      socket.off('data', onData);
      socket.pause();
      resolve();
    };
    socket.on('data', onData);
    socket.once('error', reject);
  });
  return { socket, head };
}

/**
 * A page that reads every event: `done` resolves with how many `data-changed` came before the
 * `sentinel`, `seen()` counts them so far.
 */
async function readingPage(): Promise<{ done: Promise<number>; seen(): number; abort(): void }> {
  const ctl = new AbortController();
  const res = await fetch(`${s.url}/api/events`, { signal: ctl.signal });
  let changed = 0;
  const done = new Promise<number>((resolve, reject) => {
    const parser = createParser({
      onEvent: (e) => {
        if (e.event !== 'card') return;
        const d = JSON.parse(e.data);
        if (d.type === 'data-changed') changed++;
        if (d.id === 'sentinel') resolve(changed);
      },
    });
    (async () => {
      const decoder = new TextDecoder();
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>)
        parser.feed(decoder.decode(chunk, { stream: true }));
    })().catch(reject);
  });
  return { done, seen: () => changed, abort: () => ctl.abort() };
}

/** Reads the rest of a paused socket: everything until the server ends it, or until the sentinel shows. */
function readRest(socket: net.Socket): Promise<{ text: string; ended: boolean }> {
  return new Promise((resolve) => {
    let text = '';
    socket.on('data', (b: Buffer) => {
      text += b.toString('utf8');
      if (text.includes('"sentinel"')) resolve({ text, ended: false });
    });
    socket.once('end', () => resolve({ text, ended: true }));
    socket.once('error', () => resolve({ text, ended: true }));
    socket.resume();
  });
}

describe('GET /api/events with a page that stops reading', () => {
  it('drops that page once a megabyte waits for it; the page that reads gets every event', async () => {
    const stalled = await stalledPage();
    expect(stalled.head).toMatch(/^HTTP\/1\.1 200/);
    const reader = await readingPage();
    for (let i = 1; i <= EVENTS; i++) {
      s.inst.events.emit('card', { type: 'data-changed', id: 'weight', version: i });
      // the reading page shares this process: let it keep up, as a page on its own device would
      while (i % 1000 === 0 && reader.seen() < i - 1000) await new Promise((r) => setTimeout(r, 1));
      if (i % 20000 === 0) console.log('at', i, reader.seen());
    }
    s.inst.events.emit('card', { type: 'card-changed', id: 'sentinel' });
    expect(await reader.done).toBe(EVENTS);
    reader.abort();

    const rest = await readRest(stalled.socket);
    expect(rest.ended, 'the stalled page was still being sent events').toBe(true);
    expect(rest.text).not.toContain('"sentinel"');
    expect(rest.text.trimEnd()).toMatch(new RegExp(`: ${SLOW_CLIENT_COMMENT}\\s*0?$`));

    const metrics = await s.api('/metrics', { token: ADMIN });
    expect(metrics.text).toMatch(/klebb_sse_slow_clients_dropped_total\{stream="events"\} 1/);
  }, 60_000);
});
