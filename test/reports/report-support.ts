/**
 * Shared steps of the report tests: upload a file through the real route, wait for the
 * background reading to finish, read a report's list entry and file, and the model's answer
 * to the understanding call as the scripted gateway sends it.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { ScriptStep } from '../helpers/scripted-gateway.js';
import type { ApiResponse, TestServer } from '../helpers/server.js';

/** POSTs `bytes` as `filename` (URL-encoded in X-Klebb-Filename). */
export function upload(
  s: TestServer,
  filename: string,
  bytes: Buffer,
  headers: Record<string, string> = {},
): Promise<ApiResponse> {
  return s.api('/api/reports/upload', {
    method: 'POST',
    body: bytes,
    headers: {
      'content-type': 'application/octet-stream',
      'x-klebb-filename': encodeURIComponent(filename),
      ...headers,
    },
  });
}

/** Waits until no report is waiting or being read. */
export function settled(s: TestServer): Promise<void> {
  return s.inst.reports.idle();
}

/** Uploads and waits for the reading; resolves the report's list entry. */
export async function uploadAndRead(s: TestServer, filename: string, bytes: Buffer) {
  const res = await upload(s, filename, bytes);
  if (res.status !== 202) throw new Error(`upload answered ${res.status}: ${res.text}`);
  await settled(s);
  return entry(s, res.body.filename);
}

/** One report's entry of GET /api/reports. */
export async function entry(s: TestServer, name: string) {
  const list = await s.api('/api/reports');
  // biome-ignore lint/suspicious/noExplicitAny: test reads the JSON shape
  const found = list.body.reports.find((r: any) => r.name === name);
  if (!found) throw new Error(`no report ${name} in ${list.text}`);
  return found;
}

/** The report's markdown file as stored. */
export function reportFile(s: TestServer, name: string): string {
  return fs.readFileSync(path.join(s.home, 'reports', `${name}.md`), 'utf8');
}

/** Files left in the inbox. */
export function inbox(s: TestServer): string[] {
  const dir = path.join(s.home, 'inbox');
  return fs.existsSync(dir) ? fs.readdirSync(dir) : [];
}

/** The model's answer to the understanding call. */
export function modelAnswer(a: {
  title: string;
  date?: string | null;
  bullets?: string[];
  body: string;
  identifiers?: string[];
  health?: boolean;
}): ScriptStep {
  return {
    kind: 'reply',
    as: 'json',
    text: JSON.stringify({
      health: a.health ?? true,
      title: a.title,
      document_date: a.date ?? null,
      bullets: a.bullets ?? [],
      body: a.body,
      identifiers: a.identifiers ?? [],
    }),
  };
}
