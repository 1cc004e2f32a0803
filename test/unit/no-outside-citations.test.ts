/**
 * The repository stands alone: its code, comments, test names and docs give the reason for a rule
 * themselves (or link into docs/), never a pointer into documents that are not in it — a
 * reference section, an issue number, a case id, a path into a folder beside the checkout.
 *
 * What is looked for, in the tracked files of src, web, test, docs, scripts and bench:
 * - anywhere: the reference document's name, a `§` section number (a public standard's, `RFC 9110
 *   §9.2.1` or `PDF 1.7 §7.5.2`, is fine: anyone can read it), `issue #12` / `(#12)`, and paths
 *   into a sibling folder of the checkout (`../shared`, `shared/cases`);
 * - in comments, test names and docs: case ids (`P` or `G` and two digits, such as `P07`, `G12`).
 * Web addresses are taken out first: a link to another project's public page is fine.
 * Left out: test/cases/ and scripts/test-cases.mjs, the separate suite (`npm run test:cases`) that
 * reads the real-world cases from KLEBB_CASES_DIR and so names the files it reads; and this file,
 * which holds the patterns.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/sandbox-home.js';

const FOLDERS = ['src', 'web', 'test', 'docs', 'scripts', 'bench'];
const LEFT_OUT = [
  /^test\/cases\//,
  /^scripts\/test-cases\.mjs$/,
  /^test\/unit\/no-outside-citations\.test\.ts$/,
];
const TEXT_FILE = /\.(ts|tsx|mts|mjs|js|css|html|md|sh)$|^scripts\/[^/.]+$/;

/** Standards anyone can read: a `§` right after one of these names is not an outside citation. */
const PUBLIC_STANDARD = /\b(?:RFC\s?\d+|PDF\s?\d(?:\.\d)?|ISO\s?\d+|ECMA-\d+|IEEE\s?\d+)[^§]{0,12}§/g;

/** Patterns that cite outside documents wherever they stand. */
const ANYWHERE: [string, RegExp][] = [
  ['reference document', /\bREFERENCE(?:\.md)?\b/],
  ['section number', /§\s*\d/],
  ['issue number', /\b(?:issues?|bugs?|tickets?|PRs?|pull requests?)\s+#\d+|\(#\d+\)/i],
  ['sibling folder', /\.\.\/shared\b|\bshared\/(?:spec|seed|cases)\b/],
];

/** Patterns that cite outside documents in prose: comments, test names, docs. */
const IN_PROSE: [string, RegExp][] = [['case id', /\b[PG]\d{2}\b/]];

/** The prose of a source line: its comment text and the names of tests it declares. */
function proseOf(line: string, inBlockComment: boolean): string {
  const parts: string[] = [];
  const trimmed = line.trim();
  if (inBlockComment || trimmed.startsWith('/*') || trimmed.startsWith('*')) parts.push(line);
  const slash = line.search(/(?:^|[\s;,)}])\/\/ /);
  if (slash >= 0) parts.push(line.slice(slash));
  for (const m of line.matchAll(/\b(?:it|test|describe)(?:\.\w+)?\(\s*(['"`])(.*?)\1/g)) parts.push(m[2]);
  return parts.join(' ');
}

/** Every citation in `text` of file `rel`, as `file:line: kind: the line`. */
function citationsIn(rel: string, text: string): string[] {
  const found: string[] = [];
  const isDoc = rel.endsWith('.md');
  let inBlock = false;
  text.split('\n').forEach((raw, i) => {
    const line = raw.replace(/\bhttps?:\/\/\S+/g, '').replace(PUBLIC_STANDARD, '');
    const prose = isDoc ? line : proseOf(line, inBlock);
    if (!isDoc) {
      const open = line.lastIndexOf('/*');
      const close = line.lastIndexOf('*/');
      if (open > close) inBlock = true;
      else if (close > open) inBlock = false;
    }
    for (const [kind, re] of ANYWHERE)
      if (re.test(line)) found.push(`${rel}:${i + 1}: ${kind}: ${raw.trim()}`);
    for (const [kind, re] of IN_PROSE)
      if (re.test(prose)) found.push(`${rel}:${i + 1}: ${kind}: ${raw.trim()}`);
  });
  return found;
}

describe('no citations of documents outside the repository', () => {
  it('finds each kind of citation, and leaves public standards and links alone', () => {
    const sample = [
      '// as REFERENCE section 4 says',
      '/** see §3.2 */',
      '// the same bug, issue #55',
      "const file = '../shared/cases/x.json';",
      '// replays P07',
      "it('G12 survives', () => {});",
      '// RFC 9110 §9.2.1: safe methods',
      '// PDF 1.7, §7.5.2',
      '// https://github.com/x/y/issues/55 and https://example.org/#12',
      "const colour = '#000'; const key = { G01: 1 };",
    ].join('\n');
    expect(citationsIn('src/x.ts', sample).map((f) => f.split(': ')[1])).toEqual([
      'reference document',
      'section number',
      'issue number',
      'sibling folder',
      'case id',
      'case id',
    ]);
  });

  it('the repository has none', () => {
    const files = execFileSync('git', ['ls-files', '--', ...FOLDERS], { cwd: repoRoot, encoding: 'utf8' })
      .split('\n')
      .filter((f) => f && TEXT_FILE.test(f) && !LEFT_OUT.some((re) => re.test(f)));
    expect(files.length).toBeGreaterThan(100);
    const found = files.flatMap((rel) => {
      const abs = path.join(repoRoot, rel);
      return fs.existsSync(abs) ? citationsIn(rel, fs.readFileSync(abs, 'utf8')) : [];
    });
    expect(found).toEqual([]);
  });
});
