/**
 * The documents the agent may read with `read_doc`:
 * an exact allowlist of this project's own docs, each with a one-line summary for the system
 * prompt's "Available docs" block. Only files that exist are offered.
 */
import fs from 'node:fs';
import path from 'node:path';
import { utf8Prefix } from '../../common/utf8-prefix.js';
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
  { path: 'README.md', summary: 'What Klebb is, running it, configuration', kind: 'doc' },
  {
    path: 'docs/MANIFEST-SCHEMA.md',
    summary: 'Manifest format: every meta field, inputs, templates',
    kind: 'doc',
  },
  { path: 'docs/API.md', summary: 'HTTP routes, row paths, error codes', kind: 'doc' },
  {
    path: 'docs/CARDS.md',
    summary: 'What each renderer shows and reads',
    kind: 'doc',
  },
  {
    path: 'docs/CHAT-HANDBOOK.md',
    summary: 'Tool details, row paths, card recipes and examples, categories',
    kind: 'doc',
  },
  {
    path: 'docs/CHAT-AGENT.md',
    summary: 'Chat configuration and tools',
    kind: 'doc',
  },
  {
    path: 'docs/HEALTH-AUTO-EXPORT.md',
    summary: 'Health Auto Export and its metrics',
    kind: 'doc',
  },
  { path: 'docs/DEPLOY.md', summary: 'Running behind a reverse proxy', kind: 'doc' },
];

/** Allowlisted docs that exist on disk. */
export function availableDocs(root = projectRoot()): DocEntry[] {
  return DOC_ALLOWLIST.filter((d) => fs.existsSync(path.join(root, d.path)));
}

/** The anchor of a heading as GitHub makes it: lower case, punctuation dropped, spaces as `-`. */
export function headingSlug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');
}

/** The `## ` sections of markdown text: slug, and the text from the heading to the next `#`/`##` heading. */
function sections(text: string): { slug: string; text: string }[] {
  const out: { slug: string; text: string }[] = [];
  const lines = text.split('\n');
  let fenced = false;
  let current: { slug: string; lines: string[] } | undefined;
  const close = () => {
    if (current) out.push({ slug: current.slug, text: current.lines.join('\n').trimEnd() });
    current = undefined;
  };
  for (const line of lines) {
    if (line.startsWith('```')) fenced = !fenced;
    if (!fenced && /^#{1,2} /.test(line)) {
      close();
      if (line.startsWith('## ')) current = { slug: headingSlug(line.slice(3)), lines: [] };
    }
    current?.lines.push(line);
  }
  close();
  return out;
}

/**
 * Reads an allowlisted doc: `{path, content, truncated}` with content cut at MAX_DOC_BYTES; with
 * `#section` after the path (the anchor of a `## ` heading), only that section, and `section` in
 * the answer. Backslashes are normalised and the match is exact; the resolved file must stay in
 * the root.
 * @throws 400 for a path not on the allowlist (the message lists what is), 404 if it is missing
 * or has no such section (the message lists its sections).
 */
export function readDoc(
  requested: string,
  root = projectRoot(),
): { path: string; section?: string; content: string; truncated: boolean } {
  const [file, anchor] = splitAnchor(String(requested));
  const doc = readWholeDoc(file, requested, root);
  if (anchor === undefined) return doc;
  const all = sections(doc.content);
  const found = all.find((x) => x.slug === anchor.toLowerCase());
  if (!found) {
    throw notFound(
      `${doc.path} has no section "#${anchor}"; its sections: ${all.map((x) => `#${x.slug}`).join(', ')}`,
    );
  }
  return { path: doc.path, section: found.slug, content: found.text, truncated: false };
}

/** `path#anchor` as [path, anchor]; no `#` (or nothing after it): [path, undefined]. */
function splitAnchor(requested: string): [string, string | undefined] {
  const at = requested.indexOf('#');
  if (at === -1) return [requested, undefined];
  const anchor = requested.slice(at + 1).trim();
  return [requested.slice(0, at), anchor === '' ? undefined : anchor];
}

function readWholeDoc(
  requestedPath: string,
  requested: string,
  root: string,
): { path: string; content: string; truncated: boolean } {
  const wanted = requestedPath.replace(/\\/g, '/').replace(/^\.\//, '');
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
  // cut between characters: a byte cut could leave half a character (U+FFFD)
  return {
    path: entry.path,
    content: truncated ? utf8Prefix(buf.toString('utf8'), MAX_DOC_BYTES) : buf.toString('utf8'),
    truncated,
  };
}
