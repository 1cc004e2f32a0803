/**
 * The Dockerfile, checked without a Docker engine (none runs on the CI machine): its steps are
 * carried out the way Docker would, each stage in a clean folder standing for `/app`: COPY from
 * the repository (or from the build stage), RUN in that folder with the stage's ENV. Steps that
 * change the system rather than the folder (apt-get, adding the user, /data) are the only ones
 * skipped, and the test checks that nothing else is. The runtime folder then starts with the
 * image's CMD and ENV, and the image's own HEALTHCHECK command must report it healthy; it has no
 * development dependencies, serves the web app and stops cleanly on its STOPSIGNAL.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/sandbox-home.js';
import { freePort } from './nginx-harness.js';

interface Step {
  op: string;
  args: string;
}
interface Stage {
  name: string;
  steps: Step[];
}

/** The Dockerfile as stages of instructions (continuation lines joined, comments dropped). */
function parseDockerfile(text: string): Stage[] {
  const stages: Stage[] = [];
  const joined = text.replace(/\\\n/g, ' ');
  for (const raw of joined.split('\n')) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const m = /^(\w+)\s+(.*)$/.exec(line);
    if (!m?.[1]) continue;
    const op = m[1].toUpperCase();
    const args = m[2] ?? '';
    if (op === 'FROM') {
      stages.push({ name: /\sAS\s+(\S+)/i.exec(args)?.[1] ?? String(stages.length), steps: [] });
      continue;
    }
    stages.at(-1)?.steps.push({ op, args });
  }
  return stages;
}

/** A RUN that changes the system, not the /app folder: what this check may leave to Docker. */
const SYSTEM_STEP = /^(apt-get |groupadd |useradd |mkdir -p \/data)/;

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'klebb-docker-'));
let server: ChildProcess | undefined;

afterAll(async () => {
  // a clean folder of a whole npm install takes a while to remove on a busy disk
  if (server && server.exitCode === null) {
    server.kill('SIGKILL');
    await new Promise((r) => server?.once('exit', r));
  }
  await fs.promises.rm(work, { recursive: true, force: true });
}, 120_000);

/** Copies a file or folder; from the repository, what .dockerignore leaves out stays out. */
function copyInto(from: string, to: string, fromRepo: boolean): void {
  fs.cpSync(from, to, {
    recursive: true,
    filter: (src) =>
      !fromRepo || !/^(node_modules|dist|\.git)$/.test(path.relative(repoRoot, src).split(path.sep)[0] ?? ''),
  });
}

/** Carries out one stage in `dir`. Returns the ENV it set and the RUN steps it skipped. */
function runStage(
  stage: Stage,
  dir: string,
  stageDirs: Map<string, string>,
): { env: Record<string, string>; skipped: string[] } {
  fs.mkdirSync(dir, { recursive: true });
  const env: Record<string, string> = {};
  const skipped: string[] = [];
  for (const { op, args } of stage.steps) {
    if (op === 'COPY') {
      const parts = args.split(/\s+/);
      const fromStage = parts[0]?.startsWith('--from=') ? parts.shift()?.slice(7) : undefined;
      const dest = parts.pop() as string;
      for (const src of parts) {
        const origin = fromStage
          ? path.join(stageDirs.get(fromStage) as string, src.replace(/^\/app\/?/, ''))
          : path.join(repoRoot, src);
        const target = path.resolve(
          dir,
          dest.endsWith('/') || parts.length > 1 ? path.join(dest, path.basename(src)) : dest,
        );
        expect(fs.existsSync(origin), `COPY source ${src} exists`).toBe(true);
        copyInto(origin, target, !fromStage);
      }
    } else if (op === 'RUN') {
      if (SYSTEM_STEP.test(args)) {
        skipped.push(args);
        continue;
      }
      const r = spawnSync('bash', ['-euo', 'pipefail', '-c', args], {
        cwd: dir,
        env: { ...process.env, ...env },
        encoding: 'utf8',
        maxBuffer: 64 * 1024 * 1024,
      });
      expect(r.status, `RUN ${args}\n${r.stdout.slice(-2000)}\n${r.stderr.slice(-4000)}`).toBe(0);
    } else if (op === 'ENV') {
      const m = /^(\w+)=(.*)$/.exec(args);
      if (m?.[1]) env[m[1]] = m[2] ?? '';
    }
  }
  return { env, skipped };
}

describe('the Dockerfile', () => {
  it('builds in a clean folder, runs as its image would, and reports itself healthy', {
    timeout: 900_000,
  }, async () => {
    const stages = parseDockerfile(fs.readFileSync(path.join(repoRoot, 'Dockerfile'), 'utf8'));
    expect(stages.map((s) => s.name)).toEqual(['build', '1']);
    const [build, runtime] = stages as [Stage, Stage];
    const dirs = new Map<string, string>([['build', path.join(work, 'build')]]);
    const b = runStage(build, path.join(work, 'build'), dirs);
    expect(b.skipped.every((s) => s.startsWith('apt-get '))).toBe(true);
    const runDir = path.join(work, 'runtime');
    const r = runStage(runtime, runDir, dirs);
    expect(r.skipped.length).toBe(3);

    // what the image holds: the built app, no development dependencies, the documents
    expect(fs.existsSync(path.join(runDir, 'dist/web/index.html'))).toBe(true);
    expect(fs.existsSync(path.join(runDir, 'docs/API.md'))).toBe(true);
    expect(fs.existsSync(path.join(runDir, 'node_modules/fastify'))).toBe(true);
    expect(fs.existsSync(path.join(runDir, 'node_modules/vitest'))).toBe(false);
    expect(fs.existsSync(path.join(runDir, 'src'))).toBe(false);
    const user = runtime.steps.filter((s) => s.op === 'USER').at(-1)?.args;
    expect(user && user !== 'root' && user !== '0').toBe(true);
    expect(runtime.steps.find((s) => s.op === 'VOLUME')?.args).toBe(r.env.HEALTH_HOME);

    // start it as the image would, with the volume and port of this test
    const cmd = JSON.parse(runtime.steps.filter((s) => s.op === 'CMD').at(-1)?.args ?? '[]') as string[];
    const port = String(await freePort());
    const env = {
      PATH: process.env.PATH,
      ...r.env,
      HEALTH_HOME: path.join(work, 'data'),
      PORT: port,
      HOST: '127.0.0.1',
    };
    server = spawn(cmd[0] as string, cmd.slice(1), { cwd: runDir, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    server.stdout?.on('data', (d) => (out += d));
    server.stderr?.on('data', (d) => (out += d));
    const health = /CMD\s+(.*)$/.exec(
      runtime.steps.find((s) => s.op === 'HEALTHCHECK')?.args ?? '',
    )?.[1] as string;
    expect(health).toBeTruthy();
    let healthy = false;
    for (let i = 0; i < 100 && !healthy && server.exitCode === null; i++) {
      healthy = spawnSync('sh', ['-c', health], { cwd: runDir, env }).status === 0;
      if (!healthy) await new Promise((res) => setTimeout(res, 200));
    }
    expect(healthy, out).toBe(true);
    const page = await fetch(`http://localhost:${port}/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<div id="app"');
    expect(fs.existsSync(path.join(work, 'data', 'db'))).toBe(true);

    const signal = (runtime.steps.find((s) => s.op === 'STOPSIGNAL')?.args ?? 'SIGTERM') as NodeJS.Signals;
    const exited = new Promise<number | null>((res) => server?.once('exit', (code) => res(code)));
    server.kill(signal);
    expect(await exited).toBe(0);
  });
});
