import { describe, expect, it } from 'vitest';
import { KlebbError } from '../errors.js';
import { parseUploadName, safeStem } from './upload-name.js';

describe('parseUploadName', () => {
  it('decodes the header and makes a safe stem', () => {
    expect(parseUploadName(encodeURIComponent('Befund Müller 2026.PDF'))).toEqual({
      original: 'Befund Müller 2026.PDF',
      stem: 'befund-muller-2026',
      ext: 'pdf',
    });
    expect(parseUploadName('%E6%A4%9C%E6%9F%BB.jpg').stem).toBe('report');
  });

  it('keeps a right-to-left name (Hebrew letters, a right-to-left mark) as it is', () => {
    const name = '\u05EA\u05D5\u05E6\u05D0\u05D5\u05EA\u200F 2026.pdf';
    expect(parseUploadName(encodeURIComponent(name))).toMatchObject({ original: name, ext: 'pdf' });
  });

  for (const bad of [
    '../x.pdf',
    'a/b.pdf',
    'a\\b.pdf',
    'a%00.pdf',
    'a%0A.pdf',
    'results%E2%80%AEfdp.txt',
    'lab%E2%81%A7fdp%E2%81%A9.txt',
    '%E0%A4%A',
    '.pdf',
    '..pdf',
    'noext',
    'x.exe',
    '',
  ]) {
    it(`refuses ${JSON.stringify(bad)}`, () => {
      let err: unknown;
      try {
        parseUploadName(bad);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(KlebbError);
      expect((err as KlebbError).status).toBe(400);
    });
  }

  it('safeStem keeps at most 60 characters and never ends in a hyphen', () => {
    expect(safeStem(`${'a'.repeat(59)} b`)).toBe('a'.repeat(59));
  });
});
