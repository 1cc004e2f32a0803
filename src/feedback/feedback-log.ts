/**
 * The anonymised feedback log, `HEALTH_HOME/data/_meta/feedback.jsonl` (docs/CHAT-AGENT.md,
 * note_feedback and POST /api/feedback): one JSON line per bug report or unmet capability,
 * paraphrased intent only, never user data. The operator collects it with
 * `GET /api/admin/feedback?since=<ISO>`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { clipGraphemes } from '../common/graphemes.js';
import { badRequest } from '../errors.js';
import { MAX_FEEDBACK_CONTEXT_CHARS, MAX_FEEDBACK_INTENT_CHARS, MAX_FEEDBACK_TOOL_NAMES } from '../limits.js';

/** One line of the log. `ts` is an ISO time. */
export interface FeedbackEntry {
  ts: string;
  kind: 'bug' | 'feature';
  intent: string;
  context?: string;
  toolsConsidered?: string[];
}

function clip(s: string, max: number): string {
  const t = s.trim();
  return clipGraphemes(t, max);
}

/**
 * Validates and shapes an entry (docs/CHAT-AGENT.md note_feedback: intent <= 280 chars,
 * context <= 500, <= 12 tool names; kind defaults to 'feature').
 * @throws 400 naming the field when `intent` is missing or a field has the wrong type.
 */
export function shapeFeedback(input: unknown, now = new Date()): FeedbackEntry {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    throw badRequest('feedback must be a JSON object', [{ path: '', message: 'must be an object' }]);
  }
  const b = input as Record<string, unknown>;
  if (typeof b.intent !== 'string' || b.intent.trim() === '') {
    throw badRequest('intent is required', [{ path: 'intent', message: 'must be a non-empty string' }]);
  }
  const kind = b.kind === undefined ? 'feature' : b.kind;
  if (kind !== 'bug' && kind !== 'feature') {
    throw badRequest('kind must be "bug" or "feature"', [
      { path: 'kind', message: 'must be bug or feature' },
    ]);
  }
  if (b.context !== undefined && typeof b.context !== 'string') {
    throw badRequest('context must be a string', [{ path: 'context', message: 'must be a string' }]);
  }
  if (
    b.toolsConsidered !== undefined &&
    (!Array.isArray(b.toolsConsidered) || b.toolsConsidered.some((t) => typeof t !== 'string'))
  ) {
    throw badRequest('toolsConsidered must be an array of tool names', [
      { path: 'toolsConsidered', message: 'must be an array of strings' },
    ]);
  }
  const entry: FeedbackEntry = {
    ts: now.toISOString(),
    kind,
    intent: clip(b.intent, MAX_FEEDBACK_INTENT_CHARS),
  };
  if (typeof b.context === 'string' && b.context.trim())
    entry.context = clip(b.context, MAX_FEEDBACK_CONTEXT_CHARS);
  if (Array.isArray(b.toolsConsidered) && b.toolsConsidered.length) {
    entry.toolsConsidered = (b.toolsConsidered as string[])
      .slice(0, MAX_FEEDBACK_TOOL_NAMES)
      .map((t) => clip(t, 64));
  }
  return entry;
}

/** Appends one entry as a line (O_APPEND, fsynced). */
export function appendFeedback(metaDir: string, entry: FeedbackEntry): void {
  fs.mkdirSync(metaDir, { recursive: true });
  const fd = fs.openSync(path.join(metaDir, 'feedback.jsonl'), 'a', 0o600);
  try {
    fs.writeSync(fd, `${JSON.stringify(entry)}\n`);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** Entries with `ts` after `since` (an ISO time; all when absent), oldest first; unreadable lines are skipped. */
export function readFeedback(metaDir: string, since?: string): FeedbackEntry[] {
  let text: string;
  try {
    text = fs.readFileSync(path.join(metaDir, 'feedback.jsonl'), 'utf8');
  } catch {
    return [];
  }
  const out: FeedbackEntry[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    try {
      const e = JSON.parse(line) as FeedbackEntry;
      if (since === undefined || e.ts > since) out.push(e);
    } catch {
      // a torn last line from a crash is skipped, not fatal
    }
  }
  return out;
}
