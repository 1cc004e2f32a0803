/**
 * Files that hold secrets (passkeys, sessions, invites, agent tokens): JSON written atomically
 * (temp + fsync + rename, src/home/atomic-write.ts) with mode 0600 in folders of mode 0700
 * (a torn or emptied
 * passkey file must never happen).
 */
import fs from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../home/atomic-write.js';

/** Mode of every secret file. */
export const SECRET_FILE_MODE = 0o600;
/** Mode of the folders that hold them. */
export const SECRET_DIR_MODE = 0o700;

/** The result of reading a secret file: absent, parsed, or present but unreadable. */
export type SecretRead<T> =
  | { state: 'absent' }
  | { state: 'ok'; value: T }
  | { state: 'broken'; reason: string };

/**
 * Creates `dir` (mode 0700) if needed, and tightens an existing one that others can read.
 * @throws the fs error when the folder cannot be created.
 */
export function ensureSecretDir(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: SECRET_DIR_MODE });
  tighten(dir, SECRET_DIR_MODE);
}

function tighten(p: string, mode: number): void {
  try {
    const st = fs.statSync(p);
    if ((st.mode & 0o077) !== 0) fs.chmodSync(p, mode);
  } catch {
    // a filesystem without modes (or a file that vanished): nothing to tighten
  }
}

/**
 * Reads and parses a secret JSON file, tightening its mode to 0600 if it was looser.
 * `check` says whether the parsed value has the expected shape.
 */
export function readSecretJson<T>(file: string, check: (v: unknown) => v is T): SecretRead<T> {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { state: 'absent' };
    return { state: 'broken', reason: (err as Error).message };
  }
  tighten(file, SECRET_FILE_MODE);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return { state: 'broken', reason: `not JSON: ${(err as Error).message}` };
  }
  return check(value) ? { state: 'ok', value } : { state: 'broken', reason: 'unexpected shape' };
}

/**
 * Writes `value` as JSON to `file` atomically with mode 0600 (its folder is created with 0700).
 * @throws the fs error; the old file is then untouched.
 */
export function writeSecretJson(file: string, value: unknown): void {
  ensureSecretDir(path.dirname(file));
  writeFileAtomic(file, `${JSON.stringify(value, null, 2)}\n`, SECRET_FILE_MODE);
}
