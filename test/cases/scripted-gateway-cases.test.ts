// The scripted gateway serves the case files of the cases folder (outside the repository) byte
// for byte: a whole raw HTTP response on the socket, or a body with the status and content type
// the cases folder's README gives.
import net from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readCaseBytes, type ScriptedGateway, startScriptedGateway } from '../helpers/scripted-gateway.js';

let gw: ScriptedGateway;
beforeEach(async () => {
  gw = await startScriptedGateway();
});
afterEach(async () => {
  await gw.close();
});

const post = (body: unknown) =>
  fetch(`${gw.origin}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: 'Bearer k' },
    body: JSON.stringify(body),
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

describe('scripted gateway with case files', () => {
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
});
