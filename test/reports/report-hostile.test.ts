/**
 * Hostile and broken uploads against the real server: a PDF of 10 000 pages, an image of
 * 20 000 × 20 000 pixels, a zip renamed .docx, names with path separators, control
 * characters or bidirectional overrides (which show another extension than the real one), an empty file, a file over the size limit, content that does not match its name,
 * nothing is left in the inbox, nothing lands outside the reports folder, and the server keeps
 * answering (also while a report is being read). Also: the quota, with uploads racing for the
 * last slot, and hand-written reports the app must not touch.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_REPORT_UPLOAD_BYTES } from '../../src/limits.js';
import { hugePng, labPanelPdf, manyPagesPdf, zipArchive } from '../helpers/report-documents.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { entry, inbox, settled, upload, uploadAndRead } from './report-support.js';

let s: TestServer;

beforeAll(async () => {
  s = await startServer({
    env: { KLEBB_REPORTS_MAX: '6' },
    before: (home) => {
      fs.mkdirSync(path.join(home, 'reports'), { recursive: true });
      fs.writeFileSync(path.join(home, 'reports', 'my-notes.md'), '# My notes\n\nWritten by hand.\n');
    },
  });
});
afterAll(() => s.close());

/** Every file under the home, relative (to prove nothing landed outside the reports folder). */
function allFiles(dir = s.home, rel = ''): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((d) =>
      d.isDirectory() ? allFiles(path.join(dir, d.name), `${rel}${d.name}/`) : [`${rel}${d.name}`],
    );
}

async function unharmed() {
  expect((await s.api('/healthz')).status).toBe(200);
  expect((await s.api('/api/reports')).status).toBe(200);
  expect(inbox(s)).toEqual([]);
}

describe('files that are read and rejected', () => {
  it('a PDF of 10 000 pages is rejected unread, its original deleted', async () => {
    const e = await uploadAndRead(s, 'huge.pdf', await manyPagesPdf(10_000));
    expect(e.status).toBe('rejected');
    expect(e.reason).toBe('the PDF has 10000 pages; at most 200 are read');
    expect(e.hasOriginal).toBe(false);
    await unharmed();
  });

  it('an image of 20 000 × 20 000 pixels is rejected before any decoder sees it', async () => {
    const png = hugePng(20_000);
    const e = await uploadAndRead(s, 'scan.png', png);
    expect(e.status).toBe('rejected');
    expect(e.reason).toContain('20000 × 20000 pixels');
    await unharmed();
  });

  it('a zip renamed .docx is rejected as not a Word document', async () => {
    const e = await uploadAndRead(s, 'letter.docx', await zipArchive());
    expect(e.status).toBe('rejected');
    expect(e.reason).toContain('not a Word document');
    expect(
      fs.readdirSync(path.join(s.home, 'reports', '_archive')).filter((f) => f.includes('letter')),
    ).toEqual([]);
    await unharmed();
  });

  it('a rejected report can be deleted, freeing its slot', async () => {
    const list = (await s.api('/api/reports')).body;
    expect(list.failed.length).toBe(3);
    for (const name of list.failed)
      expect((await s.api(`/api/reports/${name}`, { method: 'DELETE' })).status).toBe(200);
    expect((await s.api('/api/reports')).body.quota.used).toBe(0);
  });

  it('the server answers other requests while a report is being read', async () => {
    const res = await upload(s, 'panel.pdf', await labPanelPdf());
    expect(res.status).toBe(202);
    const t0 = Date.now();
    expect((await s.api('/healthz')).status).toBe(200);
    expect((await s.api('/api/reports')).body.processing).toEqual([res.body.filename]);
    expect(Date.now() - t0).toBeLessThan(5_000);
    await settled(s);
    expect((await entry(s, res.body.filename)).status).toBe('raw');
    await s.api(`/api/reports/${res.body.filename}`, { method: 'DELETE' });
  });
});

describe('uploads refused with a 4xx, leaving nothing behind', () => {
  const cases: [
    string,
    () => Promise<{ status: number; body: { code: string; error: string } }>,
    number,
    string,
  ][] = [
    [
      'a name with a path separator',
      () => upload(s, '../../etc/evil.pdf', Buffer.from('%PDF-1.4\n')),
      400,
      'BAD_FILENAME',
    ],
    ['a name with a backslash', () => upload(s, '..\\evil.txt', Buffer.from('hi')), 400, 'BAD_FILENAME'],
    [
      'a name with a control character',
      () => upload(s, 'lab\u0000.txt', Buffer.from('hi')),
      400,
      'BAD_FILENAME',
    ],
    ['a name with a newline', () => upload(s, 'lab\nx.txt', Buffer.from('hi')), 400, 'BAD_FILENAME'],
    [
      // shown as "resultstxt.pdf": the override reverses what follows, hiding the real extension
      'a name with a right-to-left override',
      () => upload(s, 'results\u202Efdp.txt', Buffer.from('hi')),
      400,
      'BAD_FILENAME',
    ],
    [
      'a name with a right-to-left isolate',
      () => upload(s, 'lab\u2067fdp\u2069.txt', Buffer.from('hi')),
      400,
      'BAD_FILENAME',
    ],
    [
      'a name that is not URL-encoded properly',
      () => upload(s, 'x', Buffer.from('hi'), { 'x-klebb-filename': '%E0%A4%A.txt' }),
      400,
      'BAD_FILENAME',
    ],
    ['a name of dots only', () => upload(s, '...txt', Buffer.from('hi')), 400, 'BAD_FILENAME'],
    ['an extension not read', () => upload(s, 'tool.exe', Buffer.from('MZ')), 400, 'UNSUPPORTED_FILE_TYPE'],
    ['an old Word .doc', () => upload(s, 'letter.doc', Buffer.from('x')), 400, 'UNSUPPORTED_FILE_TYPE'],
    ['an empty file', () => upload(s, 'empty.pdf', Buffer.alloc(0)), 400, 'EMPTY_FILE'],
    [
      'an HTML page called .pdf',
      () => upload(s, 'page.pdf', Buffer.from('<html><script>alert(1)</script>')),
      400,
      'CONTENT_MISMATCH',
    ],
    ['a PNG called .jpg', () => upload(s, 'photo.jpg', hugePng(10)), 400, 'CONTENT_MISMATCH'],
    [
      'binary called .txt',
      () => upload(s, 'notes.txt', Buffer.from([0, 1, 2, 0xff])),
      400,
      'CONTENT_MISMATCH',
    ],
    [
      'no X-Klebb-Filename header',
      () =>
        s.api('/api/reports/upload', {
          method: 'POST',
          body: Buffer.from('hi'),
          headers: { 'content-type': 'application/octet-stream' },
        }),
      400,
      'BAD_REQUEST',
    ],
    [
      'a file over the size limit',
      () => upload(s, 'big.pdf', Buffer.alloc(MAX_REPORT_UPLOAD_BYTES + 1, 0x25)),
      413,
      'PAYLOAD_TOO_LARGE',
    ],
  ];
  for (const [what, send, status, code] of cases) {
    it(`${what}: ${status} ${code}`, async () => {
      const before = allFiles();
      const res = await send();
      expect(res.status).toBe(status);
      expect(res.body.code).toBe(code);
      expect(typeof res.body.error).toBe('string');
      expect(allFiles()).toEqual(before);
      await unharmed();
    });
  }

  it('the missing header is named in details', async () => {
    const res = await s.api('/api/reports/upload', {
      method: 'POST',
      body: Buffer.from('hi'),
      headers: { 'content-type': 'application/octet-stream' },
    });
    expect(res.body.details.map((d: { path: string }) => d.path)).toContain('headers.x-klebb-filename');
  });
});

describe('the quota', () => {
  it('uploads racing for the last slots never land more than the limit; the rest are 409', async () => {
    const used = (await s.api('/api/reports')).body.quota.used;
    const free = 6 - used;
    const results = await Promise.all(
      Array.from({ length: free + 3 }, (_, i) =>
        upload(s, 'same name.txt', Buffer.from(`LDL ${i} mmol/L\n`)),
      ),
    );
    const accepted = results.filter((r) => r.status === 202);
    expect(accepted.length).toBe(free);
    const refused = results.filter((r) => r.status === 409);
    expect(refused.length).toBe(3);
    for (const r of refused) expect(r.body.code).toBe('REPORT_QUOTA');
    // the same file name, each under its own report name
    expect(new Set(accepted.map((r) => r.body.filename)).size).toBe(free);
    await settled(s);
    const list = (await s.api('/api/reports')).body;
    expect(list.quota).toEqual({ used: 6, max: 6, remaining: 0 });
    expect(inbox(s)).toEqual([]);
  });

  it('hand-written reports do not count and cannot be changed through the app', async () => {
    const list = (await s.api('/api/reports')).body;
    expect(list.reports.map((r: { name: string }) => r.name)).not.toContain('my-notes');
    expect((await s.api('/api/reports/my-notes', { method: 'DELETE' })).body.code).toBe('HAND_WRITTEN');
    expect((await s.api('/api/reports/my-notes/reprocess', { method: 'POST' })).status).toBe(403);
    expect(fs.existsSync(path.join(s.home, 'reports', 'my-notes.md'))).toBe(true);
  });

  it('names that could leave the folder are refused by the schema', async () => {
    for (const name of ['..%2F..%2Fetc', 'A-B', '.hidden']) {
      const res = await s.api(`/api/reports/${name}/text`);
      expect(res.status).toBe(400);
    }
    expect((await s.api('/report/..%2F..%2Fetc%2Fpasswd', { headers: { accept: 'text/html' } })).status).toBe(
      404,
    );
  });
});

describe('the report page of a report whose text carries HTML', () => {
  it('shows HTML inside link text as text: no tag of the report reaches the page as markup', async () => {
    // a model or a document can put markup inside a link's words; the page's policy stops
    // scripts but not a refresh to another site, an overlay styled inline, or a fake form
    const md = [
      '# Labs',
      '',
      '[<meta http-equiv="refresh" content="0;url=https://evil.example.test/"> results](https://lab.example.test/)',
      '',
      '[<img src=x onerror=alert(1)> *open*](javascript:alert(1))',
      '',
      '[see <b style="position:fixed;inset:0">this</b>](mailto:doc@example.test)',
      '',
    ].join('\n');
    fs.writeFileSync(path.join(s.home, 'reports', 'link-markup.md'), md);
    const page = await s.api('/report/link-markup', { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    const body = page.text.replace(/^[\s\S]*<body>/, '');
    expect(body).not.toMatch(/<(meta|img|b)\b/i);
    expect(body).toContain('&lt;meta http-equiv');
    // markdown inside link words is still rendered, and only http(s) and mailto links stay links
    expect(body).toContain('<em>open</em>');
    expect(body).not.toContain('javascript:');
    expect(body).toContain('href="https://lab.example.test/"');
  });
});
