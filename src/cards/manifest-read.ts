/**
 * The first step of loading a manifest file, on its bytes alone (no registry, no store): text in
 * UTF-8 or UTF-16 (manifest-text.ts), JSON that parses to an object, no nesting too deep or broken text, no number out of
 * range. Shared by the loader on the event loop and by the worker thread that reads large files
 * (manifest-read-worker.ts), so both judge a file the same way.
 */
import { jsonShapeProblem } from '../common/json-guard.js';
import { jsonSyntaxProblem } from '../common/json-syntax.js';
import { jsonNumberProblem } from '../common/json-text.js';
import { decodeManifestText } from './manifest-text.js';

/** Why a file's bytes are not a manifest object: a load error's code, message and field path. */
export interface BytesProblem {
  code: 'INVALID_UTF8' | 'INVALID_JSON' | 'NUMBER_OUT_OF_RANGE';
  message: string;
  path?: string;
  /** The line of a JSON syntax mistake (1-based). */
  line?: number;
}

/** What a manifest file's bytes read as: its text and parsed object, or the problem. */
export type ManifestBytes =
  | { ok: true; text: string; obj: Record<string, unknown> }
  | { ok: false; problem: BytesProblem };

/** Reads a manifest file's bytes (see the file comment). */
export function readManifestBytes(bytes: Buffer): ManifestBytes {
  // bytes that are not text would be read as U+FFFD and written back changed
  const decoded = decodeManifestText(bytes);
  if (decoded.problem) {
    const { path: at, message } = decoded.problem;
    return { ok: false, problem: { code: 'INVALID_UTF8', message: `${at} ${message}`, path: at } };
  }
  // a byte order mark is not part of the text (decodeManifestText leaves it out)
  const text = decoded.text;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    // a half-saved file keeps its last good version on screen until the next save
    const at = jsonSyntaxProblem(text, err as Error);
    return {
      ok: false,
      problem: {
        code: 'INVALID_JSON',
        message: `not valid JSON at line ${at.line}, column ${at.column}: ${at.message}`,
        line: at.line,
      },
    };
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    return { ok: false, problem: { code: 'INVALID_JSON', message: 'a manifest must be a JSON object' } };
  }
  const shape = jsonShapeProblem(parsed);
  if (shape)
    return { ok: false, problem: { code: 'INVALID_JSON', message: `${shape.path} ${shape.message}` } };
  const number = jsonNumberProblem(text);
  if (number) {
    const { path: at, message } = number;
    return { ok: false, problem: { code: 'NUMBER_OUT_OF_RANGE', message: `${at} ${message}`, path: at } };
  }
  return { ok: true, text, obj: parsed as Record<string, unknown> };
}
