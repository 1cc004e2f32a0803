/**
 * Understanding a report: one call to the chat gateway per report (a second only when the first
 * summary failed the numeric fidelity gate) for a title, the document's date, at most five
 * bullet points and a clean body. The model also names the person's own identifiers (name, date
 * of birth, address, insurance and patient numbers) as written; they are removed from everything
 * stored, whatever the model did with them in its body.
 */
import { Type } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { callGateway, type GatewayConfig } from '../chat/gateway/index.js';
import { clipGraphemes } from '../common/graphemes.js';
import { unitPrefix } from '../common/utf8-prefix.js';
import { MAX_REPORT_BULLETS, MAX_REPORT_PROMPT_CHARS, REPORT_MODEL_TIMEOUT_MS } from '../limits.js';
import { checkNumericFidelity, describeUnbacked, type Unbacked } from './numeric-fidelity.js';
import type { Summary } from './report-body.js';

/** The instruction of the understanding call (our own words). */
export const COMPREHEND_INSTRUCTION = [
  'You read one document a person uploaded to their own health dashboard: a lab result, a letter from a doctor, a discharge summary, a prescription.',
  'Reply with one JSON object only, no prose around it, with these keys:',
  '- "health": true when the document is about the person\'s health or medical care, else false;',
  '- "title": a short title naming what the document is (at most 80 characters, no personal names);',
  '- "document_date": the date the document was written or the sample was taken, as YYYY-MM-DD, or null when it does not say;',
  `- "bullets": at most ${MAX_REPORT_BULLETS} short bullet points with what matters most (values outside their range, diagnoses, what to do next);`,
  "- \"body\": the document's content as clean markdown (tables as markdown tables), in the document's language, without the person's identifiers;",
  '- "identifiers": every piece of the person\'s own identity in the document, copied exactly as written: name, date of birth, address, insurance, patient and case numbers.',
  'Numbers: copy every number exactly as the document writes it, with its unit. Never compute, convert, round or add up; write no number the document does not contain.',
].join('\n');

const Reply = Type.Object({
  health: Type.Boolean(),
  title: Type.String({ minLength: 1 }),
  document_date: Type.Union([Type.String(), Type.Null()]),
  bullets: Type.Array(Type.String()),
  body: Type.String(),
  identifiers: Type.Array(Type.String()),
});

/** The outcome of understanding one report. */
export type Understanding =
  | { kind: 'summary'; summary: Summary; identifiers: string[] }
  | { kind: 'raw'; reason: string; identifiers: string[] }
  | { kind: 'not-health'; title: string };

/** Strips a ```json fence and reads the object; null when it is not the expected shape. */
export function readReply(text: string): (Summary & { health: boolean; identifiers: string[] }) | null {
  const bare = text
    .trim()
    .replace(/^```(?:json)?\s*\n?/i, '')
    .replace(/\n?```\s*$/, '');
  const start = bare.indexOf('{');
  const end = bare.lastIndexOf('}');
  if (start < 0 || end < start) return null;
  let value: unknown;
  try {
    value = JSON.parse(bare.slice(start, end + 1));
  } catch {
    return null;
  }
  if (!Value.Check(Reply, value)) return null;
  const date =
    value.document_date && /^\d{4}-\d{2}-\d{2}$/.test(value.document_date) ? value.document_date : null;
  return {
    health: value.health,
    title: clipGraphemes(value.title.replace(/\s+/g, ' ').trim(), 120),
    documentDate: date,
    bullets: value.bullets
      .map((b) => b.replace(/\s+/g, ' ').trim())
      .filter(Boolean)
      .slice(0, MAX_REPORT_BULLETS),
    body: value.body,
    identifiers: value.identifiers,
  };
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** `text` with every identifier (3 characters or more) replaced by "[removed]", case-insensitively. */
export function scrubIdentifiers(text: string, identifiers: readonly string[]): string {
  let out = text;
  const list = identifiers
    .map((i) => i.trim())
    .filter((i) => i.length >= 3)
    .sort((a, b) => b.length - a.length);
  for (const id of list) {
    const pattern = escapeRe(id).replace(/\s+/g, '\\s+');
    out = out.replace(new RegExp(pattern, 'giu'), '[removed]');
  }
  return out;
}

/** The summary as one text for the fidelity gate. */
export function summaryText(s: Summary): string {
  return [s.title, s.documentDate ?? '', ...s.bullets, s.body].join('\n');
}

async function ask(
  gateway: GatewayConfig,
  messages: { role: 'system' | 'user' | 'assistant'; content: string }[],
  signal?: AbortSignal,
) {
  const result = await callGateway(
    { maxRetries: 1, ...gateway, callTimeoutMs: REPORT_MODEL_TIMEOUT_MS },
    { messages, stream: false, temperature: 0 },
    {},
    signal,
  );
  return result.text;
}

/**
 * Understands `text` (the extracted text of one report). Never throws for a gateway failure or
 * an unusable answer: those come back as `raw` with the reason.
 * @param gateway null when no chat model is configured.
 */
export async function comprehend(
  gateway: GatewayConfig | null,
  text: string,
  signal?: AbortSignal,
): Promise<Understanding> {
  if (!gateway)
    return { kind: 'raw', reason: 'no language model is configured (CHAT_ENDPOINT_URL)', identifiers: [] };
  const cut = text.length > MAX_REPORT_PROMPT_CHARS;
  const document = cut
    ? `${unitPrefix(text, MAX_REPORT_PROMPT_CHARS)}\n[the rest of the document is not shown]`
    : text;
  const messages: { role: 'system' | 'user' | 'assistant'; content: string }[] = [
    { role: 'system', content: COMPREHEND_INSTRUCTION },
    { role: 'user', content: `The document:\n\n${document}` },
  ];
  let unbacked: Unbacked[] = [];
  let identifiers: string[] = [];
  for (let attempt = 1; attempt <= 2; attempt++) {
    let answer: string;
    try {
      answer = await ask(gateway, messages, signal);
    } catch (err) {
      if (signal?.aborted) throw err;
      return {
        kind: 'raw',
        reason: `the model could not be reached (${clipGraphemes((err as Error).message, 200)})`,
        identifiers,
      };
    }
    const reply = readReply(answer);
    if (!reply) return { kind: 'raw', reason: 'the model did not answer in the expected shape', identifiers };
    identifiers = reply.identifiers;
    if (!reply.health) return { kind: 'not-health', title: scrubIdentifiers(reply.title, identifiers) };
    const summary: Summary = {
      title: scrubIdentifiers(reply.title, identifiers),
      documentDate: reply.documentDate,
      bullets: reply.bullets.map((b) => scrubIdentifiers(b, identifiers)),
      body: scrubIdentifiers(reply.body, identifiers),
    };
    const verdict = checkNumericFidelity(summaryText(summary), text);
    if (verdict.ok) return { kind: 'summary', summary, identifiers };
    unbacked = verdict.unbacked;
    messages.push(
      { role: 'assistant', content: answer },
      {
        role: 'user',
        content: `${describeUnbacked(unbacked)}. Answer again with the same JSON keys, copying every number exactly as the document writes it, and leave out any number it does not contain.`,
      },
    );
  }
  return { kind: 'raw', reason: describeUnbacked(unbacked), identifiers };
}
