/**
 * Every way Klebb is started in production runs with the environment `npm start` sets before
 * `node` (the malloc and V8 thread pool settings of docs/DEPLOY.md): the container image and the systemd unit carry
 * the same variables with the same values, so a deployment keeps the memory figures measured
 * with `npm start`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/sandbox-home.js';

const read = (file: string) => fs.readFileSync(path.join(repoRoot, file), 'utf8');

/** `VAR=value` words that lead the `npm start` script. */
function startEnv(): Record<string, string> {
  const start = (JSON.parse(read('package.json')) as { scripts: { start: string } }).scripts.start;
  const env: Record<string, string> = {};
  for (const word of start.split(/\s+/)) {
    const m = /^([A-Z_][A-Z0-9_]*)=(\S*)$/.exec(word);
    if (!m) break;
    env[m[1]] = m[2];
  }
  return env;
}

/** `KEY=value` pairs of lines that start with `prefix` (Dockerfile `ENV `, unit `Environment=`). */
function declared(text: string, prefix: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const line of text.split('\n')) {
    if (!line.startsWith(prefix)) continue;
    const m = /^([A-Z_][A-Z0-9_]*)=(\S*)$/.exec(line.slice(prefix.length).trim());
    if (m) env[m[1]] = m[2];
  }
  return env;
}

describe('production start settings', () => {
  it('npm start sets the malloc threshold and the V8 thread pool before node', () => {
    expect(startEnv()).toEqual({ MALLOC_MMAP_THRESHOLD_: '65536', NODE_OPTIONS: '--v8-pool-size=1' });
    expect(read('package.json')).toContain('node dist/server/main.js');
  });

  it('the container image and the systemd unit run the same entry point as npm start', () => {
    expect(read('Dockerfile')).toContain('CMD ["node", "dist/server/main.js"]');
    expect(read('deploy/systemd/klebb@.service')).toContain(
      'ExecStart=/usr/bin/node /opt/klebb/dist/server/main.js',
    );
  });

  it('the container image and the systemd unit set the same variables', () => {
    const docker = declared(read('Dockerfile'), 'ENV ');
    const unit = declared(read('deploy/systemd/klebb@.service'), 'Environment=');
    for (const [name, value] of Object.entries(startEnv())) {
      expect(docker[name], `Dockerfile ENV ${name}`).toBe(value);
      expect(unit[name], `klebb@.service Environment=${name}`).toBe(value);
    }
  });
});
