import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { glob } from './glob-on-demand.js';

describe('glob stand-in', () => {
  it('loads glob at the call and answers as glob does', async () => {
    const here = path.dirname(fileURLToPath(import.meta.url));
    const found = await glob('glob-on-demand.*', { cwd: here });
    expect(found).toContain('glob-on-demand.ts');
  });
});
