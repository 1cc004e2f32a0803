/**
 * A file name sent in X-Klebb-Filename as it is, not URL-encoded (curl -H, a script that sets the
 * header to the name), arrives as its UTF-8 bytes: it is read as that UTF-8 name, so "Ärztebrief
 * 😀.txt" is that report, not refused as holding a control character, nor named from mojibake.
 * A name written in Latin-1 (one byte per letter, as some HTTP clients send "März") still reads
 * as written, and a real control character is still refused.
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { settled } from './report-support.js';

let s: TestServer;
beforeAll(async () => {
  s = await startServer();
});
afterAll(async () => {
  await s.close();
});

/** POSTs `body` over a bare socket, the header value written as these exact bytes. */
function rawUpload(
  nameBytes: Buffer,
  body: string,
): Promise<{ status: number; body: { code?: string; filename?: string } }> {
  const url = new URL(s.url);
  return new Promise((resolve, reject) => {
    const sock = net.connect(Number(url.port), url.hostname);
    const chunks: Buffer[] = [];
    sock.on('data', (d) => chunks.push(d));
    sock.on('error', reject);
    sock.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const status = Number(text.slice(9, 12));
      resolve({ status, body: JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4)) });
    });
    const bytes = Buffer.from(body, 'utf8');
    sock.write(
      Buffer.concat([
        Buffer.from(`POST /api/reports/upload HTTP/1.1\r\nHost: ${url.host}\r\nConnection: close\r\n`),
        Buffer.from('X-Klebb-Filename: '),
        nameBytes,
        Buffer.from(`\r\nContent-Type: text/plain\r\nContent-Length: ${bytes.length}\r\n\r\n`),
        bytes,
      ]),
    );
  });
}

describe('a file name sent without URL-encoding', () => {
  it('as UTF-8 bytes, emoji included, is read as that name', async () => {
    const r = await rawUpload(Buffer.from('Ärztebrief 😀.txt', 'utf8'), 'Hämoglobin 14 g/dl\n');
    expect(r.status, JSON.stringify(r.body)).toBe(202);
    expect(r.body.filename).toMatch(/-arztebrief$/);
    await settled(s);
    const list = (await s.api('/api/reports')).body;
    const all = [...list.reports, ...list.failed, ...list.processing];
    expect(JSON.stringify(all)).toContain('Ärztebrief 😀.txt');
  });

  it('as Latin-1 bytes is read as written', async () => {
    const r = await rawUpload(Buffer.from('März.txt', 'latin1'), 'LDL 3 mmol/L\n');
    expect(r.status, JSON.stringify(r.body)).toBe(202);
    expect(r.body.filename).toMatch(/-marz$/);
  });

  it('a control character is still refused', async () => {
    const r = await rawUpload(Buffer.from('a\u0085b.txt', 'latin1'), 'x\n');
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('BAD_FILENAME');
  });
});
