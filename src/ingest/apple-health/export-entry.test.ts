/**
 * sizeFits: the size an entry unpacks to against the size its zip header records. An archive of
 * macOS's Archive Utility records an entry over 4 GiB in 32 bits, its size cut to the low 32 bits
 * (an export.xml of 5 GiB says 1 GiB); the test suite cannot unpack 4 GiB, so the rule is checked
 * here, and the damaged sizes it must still refuse through the server (apple-health-zip-refusals).
 */
import { describe, expect, it } from 'vitest';
import { sizeFits } from './export-entry.js';

const GIB = 2 ** 30;

describe('sizeFits', () => {
  it('takes the recorded size, and a 32-bit size short of the real one by whole multiples of 4 GiB', () => {
    expect(sizeFits(3_165_257, 3_165_257)).toBe(true);
    // 5 GiB + 7 bytes recorded as its low 32 bits (1 GiB + 7), 9 GiB likewise
    expect(sizeFits(GIB + 7, 5 * GIB + 7)).toBe(true);
    expect(sizeFits(GIB + 7, 9 * GIB + 7)).toBe(true);
    // Zip64 records hold the whole size: no wrapping there
    expect(sizeFits(5 * GIB + 7, 5 * GIB + 7)).toBe(true);
  });

  it('refuses any other size: a byte more or less, less than recorded, a Zip64 size short by 4 GiB', () => {
    expect(sizeFits(3_165_257, 3_165_258)).toBe(false);
    expect(sizeFits(3_165_257, 3_165_256)).toBe(false);
    expect(sizeFits(5 * GIB, GIB)).toBe(false);
    expect(sizeFits(GIB + 7, 5 * GIB + 8)).toBe(false);
    expect(sizeFits(5 * GIB, 9 * GIB)).toBe(false);
  });
});
