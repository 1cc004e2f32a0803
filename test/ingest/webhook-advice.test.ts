/**
 * Mistakes seen when setting up the phone app, answered with what to fix (found in a newcomer's
 * pass with curl): a missing `Bearer` or a stale token (401 says which), the automation set to
 * CSV (HAE sends CSV as multipart/form-data), an Apple Health export.xml or its zip posted to the
 * webhook instead of the import, and a gzip-compressed body sent without its Content-Encoding.
 */
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { type IngestServer, startIngestServer } from './helpers.js';

let srv: IngestServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

function post(s: IngestServer, body: string | Buffer, headers: Record<string, string>) {
  return s.api('/api/health-auto-export', { method: 'POST', body, headers });
}

describe('401 says what to fix', () => {
  it('a token without "Bearer", no header, and a regenerated token', async () => {
    srv = await startIngestServer();
    const body = '{"data":{"metrics":[]}}';
    const bare = await post(srv, body, { authorization: srv.haeToken });
    expect(bare.status).toBe(401);
    expect(bare.body).toMatchObject({
      code: 'UNAUTHORIZED',
      error: expect.stringMatching(/Authorization: Bearer <token>/),
    });
    const none = await post(srv, body, {});
    expect(none.status).toBe(401);
    expect(none.body.error).toMatch(/missing Health Auto Export token/);
    const old = srv.haeToken;
    expect((await srv.api('/api/health-auto-export/token/regenerate', { method: 'POST' })).status).toBe(200);
    const stale = await post(srv, body, { authorization: `Bearer ${old}` });
    expect(stale.status).toBe(401);
    expect(stale.body.error).toMatch(/wrong Health Auto Export token/);
    // the message never contains the token
    expect(stale.text).not.toContain(old);
  });
});

describe('a body that is not JSON: 200, quarantined, with advice', () => {
  it('CSV with nothing Klebb reads (multipart or text/csv) asks for the JSON export format', async () => {
    srv = await startIngestServer();
    const multipart = await post(
      srv,
      '--xyz\r\nContent-Disposition: form-data; name="file"\r\n\r\nDate,Steps\r\n',
      {
        authorization: `Bearer ${srv.haeToken}`,
        'content-type': 'multipart/form-data; boundary=xyz',
      },
    );
    expect(multipart.status).toBe(200);
    expect(multipart.body.ok).toBe(false);
    expect(multipart.body.warning).toMatch(
      /ingest\/quarantine\/.*set the automation's Export Format to JSON/,
    );
    // a CSV that is not Health Auto Export's (its metrics file is read: csv-push.test.ts)
    const csv = await post(srv, 'Name,Value\nfoo,5\n', {
      authorization: `Bearer ${srv.haeToken}`,
    });
    expect(csv.body.warning).toMatch(/It looks like CSV/);
  });

  it('an export.xml or its zip points to the Apple Health import', async () => {
    srv = await startIngestServer();
    const xml = await post(srv, '<?xml version="1.0"?>\n<HealthData locale="en"></HealthData>', {
      authorization: `Bearer ${srv.haeToken}`,
      'content-type': 'application/xml',
    });
    expect(xml.status).toBe(200);
    expect(xml.body.warning).toMatch(/looks like XML.*Settings › Data › Import from Apple Health…/);
    expect(xml.body.warning).not.toMatch(/\/api\//);
    const zip = await post(srv, Buffer.from('PK\u0003\u0004 export.zip bytes', 'latin1'), {
      authorization: `Bearer ${srv.haeToken}`,
    });
    expect(zip.body.warning).toMatch(/zip archive.*Settings › Data › Import from Apple Health…/);
    expect(zip.body.warning).not.toMatch(/\/api\//);
    const gzipped = await post(srv, gzipSync('{"data":{"metrics":[]}}'), {
      authorization: `Bearer ${srv.haeToken}`,
      'content-type': 'application/json',
    });
    expect(gzipped.body.ok).toBe(false);
    expect(gzipped.body.warning).toMatch(/gzip-compressed: send it with the header Content-Encoding: gzip/);
    // broken JSON gets no advice beyond the parse error
    const broken = await post(srv, '{"data":{"metrics":[', { authorization: `Bearer ${srv.haeToken}` });
    expect(broken.body.warning).toMatch(
      /not valid JSON \(.*\); nothing was ingested; it is kept as ingest\/quarantine\/[^ ]+\.body\.$/,
    );
  });
});
