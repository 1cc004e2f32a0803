/** withGrowingYoungGeneration: values, errors and promises pass through, overlapping calls included. */
import v8 from 'node:v8';
import { afterAll, describe, expect, it } from 'vitest';
import { keepYoungGenerationSmall, withGrowingYoungGeneration } from './young-generation.js';

describe('withGrowingYoungGeneration', () => {
  // as the server does; V8's default factor is put back for whatever this process runs next
  keepYoungGenerationSmall();
  afterAll(() => v8.setFlagsFromString('--semi-space-growth-factor=2'));

  it("returns the function's value, also from nested calls", () => {
    expect(withGrowingYoungGeneration(() => withGrowingYoungGeneration(() => 41) + 1)).toBe(42);
  });

  it('passes an error on, and later calls still run', () => {
    expect(() =>
      withGrowingYoungGeneration(() => {
        throw new RangeError('boom');
      }),
    ).toThrow(RangeError);
    expect(withGrowingYoungGeneration(() => 'again')).toBe('again');
  });

  it('waits for a promise and passes its value or rejection on, overlapping calls too', async () => {
    let release: (v: string) => void = () => {};
    const slow = withGrowingYoungGeneration(() => new Promise<string>((r) => (release = r)));
    const failed = withGrowingYoungGeneration(() => Promise.reject(new TypeError('no')));
    await expect(failed).rejects.toThrow(TypeError);
    // while one still runs, a garbage-heavy call works as usual
    expect(withGrowingYoungGeneration(() => Array.from({ length: 100_000 }, (_, i) => ({ i })).length)).toBe(
      100_000,
    );
    release('done');
    await expect(slow).resolves.toBe('done');
  });
});
