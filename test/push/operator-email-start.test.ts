/**
 * HEALTH_OPERATOR_EMAIL becomes the contact in every push's signature, and Apple's push service
 * refuses the signature (every iPhone reminder, while Android and desktops work) when the contact
 * is on a name that is not public. A self-hosted server's admin address often is one: the start
 * stops with a message naming the variable and the name, and creates nothing.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { repoRoot, sandboxHome } from '../helpers/sandbox-home.js';

it.each([
  'root@nas.lan',
  'mailto:root@localhost.localdomain',
  'admin@klebb.internal',
  'me@server.home.arpa',
  'https://health.test/contact',
  'ops@health.example.',
])('HEALTH_OPERATOR_EMAIL=%s stops the start, naming it', (value) => {
  const main = path.join(repoRoot, 'dist/server/main.js');
  expect(fs.existsSync(main), 'dist/server/main.js is missing: run npm run build (npm test does)').toBe(true);
  const box = sandboxHome();
  const home = path.join(box.home, 'h');
  try {
    const r = spawnSync(process.execPath, [main], {
      env: { PATH: process.env.PATH, HEALTH_HOME: home, PORT: '0', HEALTH_OPERATOR_EMAIL: value },
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(r.status, r.stdout + r.stderr).toBe(2);
    expect(r.stderr).toContain('HEALTH_OPERATOR_EMAIL');
    expect(r.stderr).toContain('not public');
    expect(fs.existsSync(home)).toBe(false);
  } finally {
    box.remove();
  }
});
