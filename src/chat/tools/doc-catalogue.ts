/**
 * The documents the agent may read with `read_doc`:
 * an exact allowlist of this project's own docs, each with a one-line summary for the system
 * prompt's "Available docs" block. Only files that exist are offered.
 */
import fs from 'node:fs';
import path from 'node:path';
import { badRequest, notFound } from '../../errors.js';
import { projectRoot } from '../../home/project-root.js';
import { MAX_DOC_BYTES } from '../../limits.js';

/** One allowlisted document. */
export interface DocEntry {
  path: string;
  summary: string;
  kind: 'doc' | 'source';
}

/** The allowlist, relative to the project root. */
export const DOC_ALLOWLIST: DocEntry[] = [
  { path: 'README.md', summary: 'What Klebb is, how to run it, configuration', kind: 'doc' },
  {
    path: 'docs/MANIFEST-SCHEMA.md',
    summary: 'The card manifest format: every meta field, inputs, templates',
    kind: 'doc',
  },
  { path: 'docs/API.md', summary: 'Every HTTP route, auth, row paths, error codes', kind: 'doc' },
  {
    path: 'docs/CARDS.md',
    summary: 'Renderer reference: what each card component shows and reads',
    kind: 'doc',
  },
  {
    path: 'docs/CHAT-AGENT.md',
    summary: 'How the chat agent is configured and what its tools do',
    kind: 'doc',
  },
  {
    path: 'docs/HEALTH-AUTO-EXPORT.md',
    summary: 'Health Auto Export ingestion and its metrics',
    kind: 'doc',
  },
  { path: 'docs/DEPLOY.md', summary: 'Running Klebb on a server behind a reverse proxy', kind: 'doc' },
];

/** Allowlisted docs that exist on disk. */
export function availableDocs(root = projectRoot()): DocEntry[] {
  return DOC_ALLOWLIST.filter((d) => fs.existsSync(path.join(root, d.path)));
}

/**
 * Reads an allowlisted doc: `{path, content, truncated}` with content cut at MAX_DOC_BYTES.
 * Backslashes are normalised and the match is exact; the resolved file must stay in the root.
 * @throws 400 for a path not on the allowlist (the message lists what is), 404 if it is missing.
 */
export function readDoc(
  requested: string,
  root = projectRoot(),
): { path: string; content: string; truncated: boolean } {
  const wanted = String(requested).replace(/\\/g, '/').replace(/^\.\//, '');
  const entry = DOC_ALLOWLIST.find((d) => d.path === wanted);
  if (!entry) {
    throw badRequest(
      `"${requested}" is not an available doc; available: ${availableDocs(root)
        .map((d) => d.path)
        .join(', ')}`,
    );
  }
  const file = path.resolve(root, entry.path);
  if (!file.startsWith(root + path.sep)) throw badRequest('path escapes the project');
  let buf: Buffer;
  try {
    buf = fs.readFileSync(file);
  } catch {
    throw notFound(`${entry.path} is not there`);
  }
  const truncated = buf.length > MAX_DOC_BYTES;
  return { path: entry.path, content: buf.subarray(0, MAX_DOC_BYTES).toString('utf8'), truncated };
}
