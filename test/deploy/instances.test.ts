/**
 * Many people on one machine: the systemd template unit is accepted by `systemd-analyze verify`
 * and rated well hardened by `systemd-analyze security`; scripts/add-instance makes each home,
 * settings file and nginx map line (and refuses a repeated name, host or port, or a bad name);
 * two instances made by it run side by side behind one nginx with the repository's
 * configuration, each seeing only its own cards.
 */
import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { distMain } from '../helpers/child-server.js';
import { repoRoot } from '../helpers/sandbox-home.js';
import { httpsRequest } from './https-client.js';
import { freePort, startNginx, type TestNginx } from './nginx-harness.js';

const script = path.join(repoRoot, 'scripts/add-instance');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'klebb-instances-'));
const dirs = {
  KLEBB_INSTANCES_ROOT: path.join(work, 'var-lib-klebb'),
  KLEBB_ETC: path.join(work, 'etc-klebb'),
  KLEBB_NGINX_MAP: path.join(work, 'nginx', 'klebb-instances.map'),
  KLEBB_CREATE_USER: '0',
  KLEBB_DOMAIN: 'klebb.test',
};
const children: ChildProcess[] = [];
let ngx: TestNginx | undefined;

function addInstance(...args: string[]) {
  return spawnSync(script, args, { env: { ...process.env, ...dirs }, encoding: 'utf8' });
}

function readEnvFile(file: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    const m = /^([A-Z_]+)=(.*)$/.exec(line);
    if (m?.[1]) env[m[1]] = m[2] ?? '';
  }
  return env;
}

/** Starts `node dist/server/main.js` as klebb@NAME would (its env file plus the unit's settings). */
async function startInstance(name: string, token: string): Promise<void> {
  const env = readEnvFile(path.join(dirs.KLEBB_ETC, `${name}.env`));
  const child = spawn(process.execPath, [distMain], {
    cwd: repoRoot,
    env: {
      PATH: process.env.PATH,
      HEALTH_HOME: path.join(dirs.KLEBB_INSTANCES_ROOT, name),
      HOST: '127.0.0.1',
      KLEBB_TRUSTED_PROXIES: '127.0.0.1,::1',
      KLEBB_LOG_LEVEL: 'warn',
      ...env,
      AGENT_API_TOKEN: token,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let out = '';
  child.stdout?.on('data', (d) => (out += d));
  child.stderr?.on('data', (d) => (out += d));
  const deadline = Date.now() + 50_000;
  for (;;) {
    const ok = await fetch(`http://127.0.0.1:${env.PORT}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    if (child.exitCode !== null || Date.now() > deadline)
      throw new Error(`instance ${name} did not start:\n${out}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

afterAll(async () => {
  await ngx?.close();
  for (const c of children) c.kill('SIGTERM');
  await Promise.all(
    children.map((c) => (c.exitCode === null ? new Promise((r) => c.once('exit', r)) : null)),
  );
  fs.rmSync(work, { recursive: true, force: true });
});

describe('the systemd unit', () => {
  it('is accepted by systemd-analyze verify and rated well hardened', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'klebb-unit-'));
    try {
      const unit = path.join(dir, 'klebb@alice.service');
      fs.copyFileSync(path.join(repoRoot, 'deploy/systemd/klebb@.service'), unit);
      const verify = spawnSync('systemd-analyze', ['verify', unit], { encoding: 'utf8', cwd: dir });
      expect(verify.stderr.replace(/^.*\/node.*not executable.*$/m, '')).toBe('');
      expect(verify.status).toBe(0);
      const security = spawnSync('systemd-analyze', ['security', '--offline=yes', unit], {
        encoding: 'utf8',
        cwd: dir,
      });
      const level = /Overall exposure level for .*: ([\d.]+) (\w+)/.exec(security.stdout);
      expect(level, security.stdout + security.stderr).not.toBeNull();
      expect(Number(level?.[1])).toBeLessThan(3);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('scripts/add-instance', () => {
  it('refuses a bad name and a missing host', () => {
    const bad = addInstance('../etc', '8200');
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('NAME must be');
    const noHost = spawnSync(script, ['bob', '8201'], {
      env: { ...process.env, ...dirs, KLEBB_DOMAIN: '' },
      encoding: 'utf8',
    });
    expect(noHost.status).toBe(2);
    expect(noHost.stderr).toContain('KLEBB_DOMAIN');
    expect(fs.existsSync(path.join(dirs.KLEBB_ETC, 'bob.env'))).toBe(false);
  });

  it('sets up two instances that nginx serves side by side, each with only its own data', async () => {
    const [alicePort, bobPort] = [await freePort(), await freePort()];
    const a = addInstance('alice', String(alicePort));
    expect(a.status, a.stderr).toBe(0);
    const b = addInstance('bob', String(bobPort));
    expect(b.status, b.stderr).toBe(0);
    expect(fs.readFileSync(dirs.KLEBB_NGINX_MAP, 'utf8')).toBe(
      `alice.klebb.test 127.0.0.1:${alicePort};\nbob.klebb.test 127.0.0.1:${bobPort};\n`,
    );
    const aliceEnv = readEnvFile(path.join(dirs.KLEBB_ETC, 'alice.env'));
    expect(aliceEnv).toMatchObject({
      PORT: String(alicePort),
      HEALTH_ORIGIN: 'https://alice.klebb.test',
      HEALTH_RP_ID: 'alice.klebb.test',
    });
    expect(aliceEnv.KLEBB_ADMIN_TOKEN?.length).toBeGreaterThanOrEqual(24);
    expect(fs.statSync(path.join(dirs.KLEBB_ETC, 'alice.env')).mode & 0o077).toBe(0);
    expect(fs.statSync(path.join(dirs.KLEBB_INSTANCES_ROOT, 'alice')).mode & 0o077).toBe(0);

    // a repeated name, host or port changes nothing
    const before = fs.readFileSync(dirs.KLEBB_NGINX_MAP, 'utf8');
    expect(addInstance('alice', '8300').status).toBe(2);
    expect(addInstance('carol', String(bobPort)).status).toBe(2);
    expect(addInstance('carol', '8301', 'bob.klebb.test').status).toBe(2);
    expect(fs.readFileSync(dirs.KLEBB_NGINX_MAP, 'utf8')).toBe(before);

    await startInstance('alice', 'alice-token-0123456789abcdef');
    await startInstance('bob', 'bob-token-0123456789abcdef');
    ngx = await startNginx({ mapFile: dirs.KLEBB_NGINX_MAP });
    const card = (id: string, label: string) => ({
      $schema: 'klebb.datafile.v1',
      meta: { id, label, renderer: 'list' },
      description: label,
      schema: { type: 'array', items: { type: 'object' } },
    });
    const made = await httpsRequest(ngx, '/api/manifests', {
      sub: 'alice',
      token: 'alice-token-0123456789abcdef',
      json: card('alice-notes', 'Alice notes'),
    });
    expect(made.status, made.text).toBe(201);
    const aliceList = await httpsRequest(ngx, '/api/manifests', {
      sub: 'alice',
      token: 'alice-token-0123456789abcdef',
    });
    const bobList = await httpsRequest(ngx, '/api/manifests', {
      sub: 'bob',
      token: 'bob-token-0123456789abcdef',
    });
    const ids = (r: { text: string }) => JSON.stringify(r.text);
    expect(ids(aliceList)).toContain('alice-notes');
    expect(ids(bobList)).not.toContain('alice-notes');
    // one instance's token opens nothing on the other
    const crossed = await httpsRequest(ngx, '/api/manifests', {
      sub: 'bob',
      token: 'alice-token-0123456789abcdef',
    });
    expect(crossed.status).toBe(401);
    // a third instance added later is served after a reload
    const carolPort = await freePort();
    expect(addInstance('carol', String(carolPort)).status).toBe(0);
    await startInstance('carol', 'carol-token-0123456789abcdef');
    await ngx.reload();
    const carol = await httpsRequest(ngx, '/api/manifests', {
      sub: 'carol',
      token: 'carol-token-0123456789abcdef',
    });
    expect(carol.status).toBe(200);
    expect(
      execFileSync('ls', [dirs.KLEBB_INSTANCES_ROOT], { encoding: 'utf8' }).split('\n').filter(Boolean),
    ).toEqual(['alice', 'bob', 'carol']);
    // three real server start-ups and an nginx: on a busy machine this takes longer than the default
  }, 180_000);
});
