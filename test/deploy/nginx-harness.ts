/**
 * Debian's nginx (`/usr/sbin/nginx`, KLEBB_NGINX overrides) running the repository's own
 * deploy/nginx/klebb.conf for a test: the file is used as written except for what a test machine
 * must change (listen ports on 127.0.0.1, the certificate made here, the instance map's path,
 * the host names), each change a plain text replacement that fails loudly when the line it
 * replaces is gone. A missing nginx is an error, never a skip (`.ci/run` installs it).
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { repoRoot } from '../helpers/sandbox-home.js';

export const NGINX_PATH = process.env.KLEBB_NGINX || '/usr/sbin/nginx';
/** The public name the tests give Klebb (resolved to 127.0.0.1 by the clients themselves). */
export const TEST_HOST = 'klebb.test';

/** A self-signed certificate for `*.klebb.test` and `klebb.test`, made with openssl. */
export interface Certificate {
  certFile: string;
  keyFile: string;
  /** PEM text of the certificate (a client's trusted CA). */
  pem: string;
  /** base64 SHA-256 of the public key (Chromium's --ignore-certificate-errors-spki-list). */
  spki: string;
}

/** Makes a certificate in `dir` with openssl. @throws when openssl fails. */
export function makeCertificate(dir: string): Certificate {
  const certFile = path.join(dir, 'cert.pem');
  const keyFile = path.join(dir, 'key.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '2',
      '-subj',
      `/CN=${TEST_HOST}`,
      '-addext',
      `subjectAltName=DNS:${TEST_HOST},DNS:*.${TEST_HOST}`,
      '-keyout',
      keyFile,
      '-out',
      certFile,
    ],
    { stdio: 'pipe' },
  );
  const pem = fs.readFileSync(certFile, 'utf8');
  const spkiDer = new crypto.X509Certificate(pem).publicKey.export({ type: 'spki', format: 'der' });
  const spki = crypto.createHash('sha256').update(spkiDer).digest('base64');
  return { certFile, keyFile, pem, spki };
}

/** A free TCP port on 127.0.0.1. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}

function replaceOrFail(text: string, from: string | RegExp, to: string): string {
  const found = typeof from === 'string' ? text.includes(from) : from.test(text);
  if (!found)
    throw new Error(`deploy/nginx/klebb.conf no longer contains ${String(from)}: update the test harness`);
  return typeof from === 'string' ? text.split(from).join(to) : text.replace(from, to);
}

/** The repository's klebb.conf adapted to this machine (see the file comment). */
export function adaptKlebbConf(opts: {
  httpsPort: number;
  httpPort: number;
  cert: Certificate;
  mapFile: string;
}): string {
  let conf = fs.readFileSync(path.join(repoRoot, 'deploy/nginx/klebb.conf'), 'utf8');
  conf = replaceOrFail(conf, 'listen 443 ssl http2;', `listen 127.0.0.1:${opts.httpsPort} ssl http2;`);
  conf = replaceOrFail(conf, 'listen [::]:443 ssl http2;', '');
  conf = replaceOrFail(conf, 'listen 80;', `listen 127.0.0.1:${opts.httpPort};`);
  conf = replaceOrFail(conf, 'listen [::]:80;', '');
  conf = replaceOrFail(
    conf,
    /server_name klebb\.example\.org \*\.klebb\.example\.org;/g,
    `server_name ${TEST_HOST} *.${TEST_HOST};`,
  );
  conf = replaceOrFail(conf, '/etc/letsencrypt/live/klebb.example.org/fullchain.pem', opts.cert.certFile);
  conf = replaceOrFail(conf, '/etc/letsencrypt/live/klebb.example.org/privkey.pem', opts.cert.keyFile);
  conf = replaceOrFail(conf, 'include /etc/nginx/klebb-instances.map;', `include ${opts.mapFile};`);
  return conf;
}

/** A running nginx. */
export interface TestNginx {
  dir: string;
  httpsPort: number;
  httpPort: number;
  cert: Certificate;
  /** https://klebb.test:<port> (or https://<sub>.klebb.test:<port>). */
  origin(sub?: string): string;
  /** Everything nginx wrote to its error log. */
  errorLog(): string;
  /** Re-reads the config (after the map file changed). */
  reload(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Starts nginx with the adapted klebb.conf. `mapLines` are the instance map's entries
 * ("klebb.test 127.0.0.1:8101;"); `mapFile` uses an existing map instead (what scripts/add-instance wrote);
 * `httpsPort` fixes the HTTPS port (when Klebb's HEALTH_ORIGIN must name it before nginx starts).
 * @throws when nginx is missing or does not come up.
 */
export async function startNginx(opts: {
  mapLines?: string[];
  mapFile?: string;
  httpsPort?: number;
}): Promise<TestNginx> {
  if (!fs.existsSync(NGINX_PATH)) {
    throw new Error(
      `nginx is not installed at ${NGINX_PATH}: the deployment tests run Debian's nginx. ` +
        'Install it with `apt-get install -y nginx` (.ci/run does this), or set KLEBB_NGINX.',
    );
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'klebb-nginx-'));
  fs.chmodSync(dir, 0o755);
  const cert = makeCertificate(dir);
  const mapFile = opts.mapFile ?? path.join(dir, 'instances.map');
  if (!opts.mapFile) fs.writeFileSync(mapFile, `${(opts.mapLines ?? []).join('\n')}\n`);
  const httpsPort = opts.httpsPort ?? (await freePort());
  const httpPort = await freePort();
  fs.writeFileSync(path.join(dir, 'klebb.conf'), adaptKlebbConf({ httpsPort, httpPort, cert, mapFile }));
  const asRoot = process.getuid?.() === 0;
  fs.writeFileSync(
    path.join(dir, 'nginx.conf'),
    [
      asRoot ? 'user root root;' : '',
      'worker_processes 1;',
      `pid ${dir}/nginx.pid;`,
      `error_log ${dir}/error.log warn;`,
      'events { worker_connections 256; }',
      'http {',
      `  access_log ${dir}/access.log;`,
      `  client_body_temp_path ${dir}/body;`,
      `  proxy_temp_path ${dir}/proxy;`,
      `  fastcgi_temp_path ${dir}/fastcgi;`,
      `  uwsgi_temp_path ${dir}/uwsgi;`,
      `  scgi_temp_path ${dir}/scgi;`,
      `  include ${dir}/klebb.conf;`,
      '}',
      '',
    ].join('\n'),
  );
  const child: ChildProcess = spawn(NGINX_PATH, ['-p', dir, '-c', `${dir}/nginx.conf`, '-g', 'daemon off;'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (d) => (output += d));
  child.stderr?.on('data', (d) => (output += d));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const errorLog = () => {
    try {
      return fs.readFileSync(path.join(dir, 'error.log'), 'utf8');
    } catch {
      return '';
    }
  };
  const deadline = Date.now() + 10_000;
  while (!(await portOpen(httpsPort))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`nginx did not start: ${output}\n${errorLog()}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    dir,
    httpsPort,
    httpPort,
    cert,
    origin: (sub) => `https://${sub ? `${sub}.` : ''}${TEST_HOST}:${httpsPort}`,
    errorLog,
    async reload() {
      execFileSync(NGINX_PATH, ['-p', dir, '-c', `${dir}/nginx.conf`, '-s', 'reload'], { stdio: 'pipe' });
      await new Promise((r) => setTimeout(r, 300));
    },
    async close() {
      if (child.exitCode === null) {
        child.kill('SIGQUIT');
        const t = setTimeout(() => child.kill('SIGKILL'), 5000);
        await exited;
        clearTimeout(t);
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect(port, '127.0.0.1');
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });
}
