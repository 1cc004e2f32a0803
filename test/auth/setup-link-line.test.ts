/**
 * The first-start link as the server prints it: on a line of its own, nothing else on it, between
 * blank lines, so it can be copied from a terminal whole; and it is the link that works.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { killAllChildren, spawnServer } from '../helpers/child-server.js';
import { sandboxHome } from '../helpers/sandbox-home.js';

afterAll(async () => {
  await killAllChildren();
});

describe('the first-start link in the server output', () => {
  it('stands alone on its line, and opens the passkey set-up', async () => {
    const box = sandboxHome();
    try {
      const child = await spawnServer({ home: box.home, env: { KLEBB_LOG_LEVEL: 'info' } });
      const linkRe = new RegExp(`^http://localhost:${child.port}/setup#code=[A-Za-z0-9_-]+$`);
      await expect
        .poll(() =>
          child
            .output()
            .split('\n')
            .some((l) => linkRe.test(l)),
        )
        .toBe(true);
      const lines = child.output().split('\n');
      const at = lines.findIndex((l) => linkRe.test(l));
      // a blank line before and after: a triple-click or a double-click selects the link alone
      expect([lines[at - 1], lines[at + 1]], child.output()).toEqual(['', '']);
      expect(lines[at - 2]).toMatch(/one-time link/);
      const code = lines[at].slice(lines[at].indexOf('#code=') + '#code='.length);
      const r = await child.api(`/auth/register/available?code=${encodeURIComponent(code)}`, { token: '' });
      expect(r.body).toMatchObject({ available: true });
      await child.stop();
    } finally {
      box.remove();
    }
  });
});
