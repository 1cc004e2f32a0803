/**
 * read_report (docs/CHAT-AGENT.md tools table): reads `<home>/reports/<name>.md`,
 * withholds unverified OCR text, refuses names that could leave the folder.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ToolEnv, toolEnv } from './harness.js';

let t: ToolEnv;
const plain = '# Lipid panel\n\nLDL 2.9 mmol/L\n';
const fronted = [
  '---',
  'title: Blood count',
  'document_date: 2026-03-02',
  'ingested_at: 2026-03-05T10:00:00Z',
  'source_format: pdf',
  'status: ready',
  '---',
  '# Blood count',
  '',
  'Hb 14.1',
  '',
].join('\n');
const unchecked = [
  '---',
  'status: needs checking',
  'source_format: ocr',
  '---',
  '# Scan',
  'Hb ?4.1',
  '',
].join('\n');
const verifyRequired = ['---', 'verify: required', 'status: draft', '---', '# Scan 2', ''].join('\n');

beforeAll(async () => {
  t = await toolEnv({
    before: (home) => {
      const dir = path.join(home, 'reports');
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(path.join(dir, 'lipids-2026.md'), plain);
      fs.writeFileSync(path.join(dir, 'blood_count.md'), fronted);
      fs.writeFileSync(path.join(dir, 'scan.md'), unchecked);
      fs.writeFileSync(path.join(dir, 'scan2.md'), verifyRequired);
      fs.writeFileSync(path.join(dir, '.hidden.md'), '# hidden\n');
      fs.writeFileSync(path.join(home, 'secret.md'), '# outside the reports folder\n');
      fs.writeFileSync(path.join(home, 'data-secret.md'), '# outside\n');
    },
  });
});
afterAll(async () => {
  await t.close();
});

describe('read_report', () => {
  it('reads a report without front matter', async () => {
    const r = await t.call('read_report', { name: 'lipids-2026' });
    expect(r.ok).toBe(true);
    expect(r.json).toEqual({
      name: 'lipids-2026',
      path: 'reports/lipids-2026.md',
      content: plain,
      ingestedAt: null,
      sourceFormat: null,
      truncated: false,
    });
  });

  it('reads a report with front matter, exposing ingestedAt and sourceFormat', async () => {
    const r = await t.call('read_report', { name: 'blood_count' });
    expect(r.ok).toBe(true);
    expect(r.json).toMatchObject({
      name: 'blood_count',
      path: 'reports/blood_count.md',
      ingestedAt: '2026-03-05T10:00:00Z',
      sourceFormat: 'pdf',
      truncated: false,
    });
    expect(r.json.content).toContain('Hb 14.1');
  });

  it('tolerates a trailing .md on the name', async () => {
    const r = await t.call('read_report', { name: 'lipids-2026.md' });
    expect(r.ok).toBe(true);
    expect(r.json.name).toBe('lipids-2026');
  });

  it('withholds a report whose status is "needs checking"', async () => {
    const r = await t.call('read_report', { name: 'scan' });
    expect(r.ok).toBe(false);
    expect(typeof r.json.error).toBe('string');
    expect(r.json.code).toBe('FORBIDDEN');
    expect(r.content).not.toContain('?4.1');
  });

  it('withholds a report marked verify: required until its status is ready', async () => {
    const r = await t.call('read_report', { name: 'scan2' });
    expect(r.ok).toBe(false);
    expect(r.json).not.toHaveProperty('content');
  });

  it('withholds a "needs checking" report saved with CRLF line ends', async () => {
    fs.writeFileSync(path.join(t.s.home, 'reports', 'scan-crlf.md'), unchecked.replace(/\n/g, '\r\n'));
    const r = await t.call('read_report', { name: 'scan-crlf' });
    expect(r.ok).toBe(false);
    expect(r.content).not.toContain('?4.1');
  });

  it('withholds a "needs checking" report that starts with a UTF-8 byte order mark', async () => {
    fs.writeFileSync(path.join(t.s.home, 'reports', 'scan-bom.md'), `\uFEFF${unchecked}`);
    const r = await t.call('read_report', { name: 'scan-bom' });
    expect(r.ok).toBe(false);
    expect(r.content).not.toContain('?4.1');
  });

  it('an unknown report is an error', async () => {
    const r = await t.call('read_report', { name: 'nope' });
    expect(r.ok).toBe(false);
    expect(r.json.code).toBe('NOT_FOUND');
  });

  const refused = [
    '..',
    '../secret',
    '../secret.md',
    '..%2fsecret',
    'x/../../secret',
    'sub/report',
    '/etc/passwd',
    '..\\secret',
    '.hidden',
    '.hidden.md',
    '.',
    '',
    'lipids-2026\u0000',
  ];
  for (const name of refused) {
    it(`refuses the name ${JSON.stringify(name)}`, async () => {
      const r = await t.call('read_report', { name });
      expect(r.ok).toBe(false);
      expect(typeof r.json.error).toBe('string');
      expect(r.json).not.toHaveProperty('content');
    });
  }

  it('a name that is not a string fails the schema', async () => {
    const r = await t.call('read_report', { name: 42 });
    expect(r.ok).toBe(false);
    expect(r.json.details.map((d: { path: string }) => d.path)).toContain('name');
  });

  it('truncates a report over 200 000 bytes', async () => {
    fs.writeFileSync(path.join(t.s.home, 'reports', 'big.md'), `# Big\n${'z'.repeat(250_000)}`);
    const r = await t.call('read_report', { name: 'big' });
    expect(r.json.truncated).toBe(true);
    expect(Buffer.byteLength(r.json.content)).toBe(200_000);
  });
});
