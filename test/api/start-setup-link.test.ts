/**
 * Start-up and the one-time set-up link: a port already in use stops the start with a sentence
 * naming the port and PORT, before any set-up link is printed (and before the home is made); the
 * link is printed at every start while no passkey exists, called "First start" only on the start
 * that created the home.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { distMain, killAllChildren, spawnServer } from '../helpers/child-server.js';
import { sandboxHome } from '../helpers/sandbox-home.js';

afterAll(() => killAllChildren());

describe('start-up', () => {
  it('refuses a port in use with its number and PORT, and prints no set-up link', async () => {
    const box = sandboxHome();
    const other = net.createServer();
    await new Promise<void>((r) => other.listen(0, '127.0.0.1', r));
    const port = (other.address() as net.AddressInfo).port;
    const home = path.join(box.home, 'h');
    try {
      const r = spawnSync(process.execPath, [distMain], {
        env: { PATH: process.env.PATH, HEALTH_HOME: home, PORT: String(port), HOST: '127.0.0.1' },
        encoding: 'utf8',
        timeout: 20_000,
      });
      expect(r.status, r.stdout + r.stderr).toBe(2);
      expect(r.stderr).toContain(`port ${port}`);
      expect(r.stderr).toContain('PORT');
      expect(r.stdout + r.stderr).not.toMatch(/one-time link|setup#code=/);
      expect(fs.existsSync(home)).toBe(false);
    } finally {
      await new Promise((r) => other.close(r));
      box.remove();
    }
  });

  it('says "First start" on the first start only, and prints the link again while no passkey exists', async () => {
    const box = sandboxHome();
    try {
      const env = { KLEBB_LOG_LEVEL: 'info' };
      const first = await spawnServer({ home: box.home, env });
      await expect.poll(() => first.output()).toMatch(/setup#code=/);
      await first.stop();
      expect(first.output()).toContain('First start: open this one-time link');
      const second = await spawnServer({ home: box.home, env });
      await expect.poll(() => second.output()).toMatch(/setup#code=/);
      await second.stop();
      expect(second.output()).not.toContain('First start');
      expect(second.output()).toContain('No passkey yet: open this one-time link');
    } finally {
      box.remove();
    }
  });
});
