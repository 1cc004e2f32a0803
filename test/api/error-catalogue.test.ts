/**
 * One error catalogue: every code in src/errors.ts is documented in docs/API.md "Codes" with the
 * same statuses, every documented code is in the catalogue, and no source file throws or sends a
 * code the catalogue does not hold (the types refuse it; this also catches hand-built bodies).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES, type ErrorCode, KlebbError } from '../../src/errors.js';
import { toErrorResponse } from '../../src/http/error-handler.js';

const ROOT = path.resolve(import.meta.dirname, '../..');

/** The rows of the table under "### Codes": code → statuses (empty for —). */
function documentedCodes(): Map<string, number[]> {
  const doc = readFileSync(path.join(ROOT, 'docs/API.md'), 'utf8');
  const start = doc.indexOf('\n### Codes\n');
  expect(start).toBeGreaterThan(0);
  const section = doc.slice(start + 1, doc.indexOf('\n## ', start + 1));
  const rows = new Map<string, number[]>();
  for (const line of section.split('\n')) {
    const m = /^\| ([^|]+) \| `([A-Z0-9_]+)` \| (.+) \|$/.exec(line);
    if (!m) continue;
    expect(rows.has(m[2]), `${m[2]} is listed twice`).toBe(false);
    const statuses = m[1].trim() === '—' ? [] : m[1].split(',').map((s) => Number(s.trim()));
    expect(statuses.every(Number.isInteger), `status cell of ${m[2]}: ${m[1]}`).toBe(true);
    rows.set(m[2], statuses);
  }
  return rows;
}

/** Card-loader codes: they describe a file in the listing's `errors`, not a failed request. */
const LOAD_ERROR_CODES = new Set([
  'UNSUPPORTED_SCHEMA',
  'MISSING_FIELD',
  'DUPLICATE_ID',
  'FIELD_DROPPED',
  'READ_FAILED',
  'DATA_NOT_IMPORTED',
  'DATA_RESCUED',
  'FIELD_UNUSABLE',
  'FILE_IN_CLOUD',
  'FILE_TOO_LARGE',
]);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return name.endsWith('.ts') && !name.endsWith('.test.ts') ? [full] : [];
  });
}

describe('the error catalogue', () => {
  const catalogue = ERROR_CODES as Record<string, { status: readonly number[]; meaning: string }>;

  it('every catalogue code is documented with the same statuses', () => {
    const documented = documentedCodes();
    for (const [code, info] of Object.entries(catalogue)) {
      expect(documented.get(code), `${code} is not in docs/API.md "Codes"`).toBeDefined();
      expect([...(documented.get(code) ?? [])].sort(), `statuses of ${code}`).toEqual(
        [...info.status].sort(),
      );
    }
  });

  it('every documented code is in the catalogue', () => {
    const extra = [...documentedCodes().keys()].filter((c) => !(c in catalogue));
    expect(extra).toEqual([]);
  });

  it('every entry has a one-line meaning and HTTP error statuses', () => {
    for (const [code, info] of Object.entries(catalogue)) {
      expect(code).toMatch(/^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$/);
      expect(info.meaning.length, code).toBeGreaterThan(10);
      expect(info.meaning, code).not.toMatch(/\n/);
      for (const s of info.status) expect(s >= 400 && s < 600, `${code} ${s}`).toBe(true);
    }
  });

  it('no source file names an error code outside the catalogue', () => {
    // a code is any UPPER_SNAKE literal given to an error factory, KlebbError, or a `code:` field
    const near =
      /\b(?:badRequest|forbidden|notFound|conflict|invalid|unavailable|refuse|bad|zipError|toolError|failed|new KlebbError)\(([^;]{0,400}?)\)|\bcode: '([A-Z][A-Z0-9_]+)'/gs;
    const unknown: string[] = [];
    for (const file of sourceFiles(path.join(ROOT, 'src'))) {
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(near)) {
        const literals = m[2]
          ? [m[2]]
          : [...(m[1] ?? '').matchAll(/'([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+|[A-Z]{4,})'/g)].map((x) => x[1]);
        for (const code of literals) {
          if (!(code in catalogue) && !LOAD_ERROR_CODES.has(code))
            unknown.push(`${path.relative(ROOT, file)}: ${code}`);
        }
      }
    }
    expect(unknown).toEqual([]);
  });

  it('the error handler answers a catalogue code with one of its statuses', () => {
    const samples: [unknown, ErrorCode][] = [
      [new KlebbError(404, 'CARD_NOT_FOUND', 'no card'), 'CARD_NOT_FOUND'],
      [new Error('boom'), 'INTERNAL'],
      [Object.assign(new Error('bad'), { validation: [], validationContext: 'body' }), 'BAD_REQUEST'],
      [
        Object.assign(new Error('big'), { statusCode: 413, code: 'FST_ERR_CTP_BODY_TOO_LARGE' }),
        'PAYLOAD_TOO_LARGE',
      ],
    ];
    for (const [thrown, code] of samples) {
      const { status, body } = toErrorResponse(thrown);
      expect(body.code).toBe(code);
      expect(ERROR_CODES[code].status).toContain(status);
    }
  });
});
