/**
 * read_doc: exact-match allowlist, backslashes
 * normalised, root containment, 300 000-byte truncation. Through dispatchToolCall against the
 * real project root, and readDoc unit-tested against a temporary root.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { availableDocs, DOC_ALLOWLIST, readDoc } from '../../src/chat/tools/doc-catalogue.js';
import { repoRoot } from '../helpers/sandbox-home.js';
import { type ToolEnv, toolEnv } from './harness.js';

let t: ToolEnv;
beforeAll(async () => {
  t = await toolEnv();
});
afterAll(async () => {
  await t.close();
});

describe('read_doc through the dispatcher', () => {
  it('reads README.md and docs/API.md whole', async () => {
    for (const p of ['README.md', 'docs/API.md']) {
      const r = await t.call('read_doc', { path: p });
      expect(r.ok).toBe(true);
      expect(r.json).toEqual({
        path: p,
        content: fs.readFileSync(path.join(repoRoot, p), 'utf8'),
        truncated: false,
      });
    }
  });

  it('a backslashed allowlisted path is normalised', async () => {
    const r = await t.call('read_doc', { path: 'docs\\API.md' });
    expect(r.ok).toBe(true);
    expect(r.json.path).toBe('docs/API.md');
  });

  const refused = [
    '../package.json',
    'package.json',
    'src/app.ts',
    'docs/../README.md',
    'docs/./API.md',
    './docs/../README.md',
    'docs//API.md',
    'docs\\..\\README.md',
    '..\\package.json',
    '..\\..\\etc\\passwd',
    '/etc/passwd',
    `${repoRoot}/README.md`,
    'readme.md',
    'README.md ',
    ' README.md',
    'README.md/',
    'docs/API.md\u0000',
    'docs',
    '',
    '.env',
  ];
  for (const p of refused) {
    it(`refuses ${JSON.stringify(p)} with an error listing the available docs`, async () => {
      const r = await t.call('read_doc', { path: p });
      expect(r.ok).toBe(false);
      expect(typeof r.json.error).toBe('string');
      expect(r.json).not.toHaveProperty('content');
      expect(r.json.error).toContain('README.md');
      expect(r.json.error).toContain('docs/API.md');
    });
  }

  it('a missing path argument fails the schema', async () => {
    const r = await t.call('read_doc', {});
    expect(r.ok).toBe(false);
    expect(r.json.details.map((d: { path: string }) => d.path)).toContain('path');
  });
});

describe('readDoc against a temporary root', () => {
  let root: string;
  beforeAll(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'klebb-docs-'));
    fs.mkdirSync(path.join(root, 'docs'));
    fs.writeFileSync(path.join(root, 'package.json'), '{"name":"secret"}');
  });
  afterAll(() => {
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('truncates at exactly 300 000 bytes', () => {
    fs.writeFileSync(path.join(root, 'README.md'), 'a'.repeat(300_001));
    const r = readDoc('README.md', root);
    expect(r.truncated).toBe(true);
    expect(Buffer.byteLength(r.content)).toBe(300_000);
    expect(r.path).toBe('README.md');
  });

  it('a file of exactly 300 000 bytes is not truncated', () => {
    fs.writeFileSync(path.join(root, 'README.md'), 'b'.repeat(300_000));
    const r = readDoc('README.md', root);
    expect(r.truncated).toBe(false);
    expect(r.content).toBe('b'.repeat(300_000));
  });

  it('a much larger file is still cut to 300 000 bytes', () => {
    fs.writeFileSync(path.join(root, 'docs', 'API.md'), 'c'.repeat(1_000_000));
    const r = readDoc('docs/API.md', root);
    expect(r.truncated).toBe(true);
    expect(r.content.length).toBe(300_000);
  });

  it('only existing allowlisted docs are offered; a missing one is an error', () => {
    const offered = availableDocs(root).map((d) => d.path);
    expect(offered).toEqual(['README.md', 'docs/API.md']);
    expect(() => readDoc('docs/CARDS.md', root)).toThrow();
    expect(() => readDoc('package.json', root)).toThrow(/README\.md/);
  });

  it('every allowlist entry is a relative path inside the root with a summary', () => {
    for (const d of DOC_ALLOWLIST) {
      expect(path.isAbsolute(d.path)).toBe(false);
      expect(d.path.split('/')).not.toContain('..');
      expect(d.summary.length).toBeGreaterThan(0);
      expect(['doc', 'source']).toContain(d.kind);
    }
  });
});
