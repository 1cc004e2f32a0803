/**
 * The instance segment of the system prompt: the user's cards and reports (docs/CHAT-AGENT.md
 * "System prompt structure": `## Currently available cards`, `## Available reports`). It changes
 * when a card or report is added, renamed or removed, so it sits between the two cache
 * breakpoints. Lines follow the given order; nothing here
 * reads a clock or iterates a map.
 */

import { isolateText } from '../../common/isolate-text.js';
import { firstLine } from '../../common/text.js';
import type { ReportInfo } from '../../reports/report-catalogue.js';

/** Longest description line shown per card, characters ("≤120"). */
export const CARD_DESCRIPTION_CHARS = 120;
/** Most reports listed; the rest are counted (our cap, to bound the instance segment). */
export const MAX_PROMPT_REPORTS = 50;

/** A card as the prompt lists it. */
export interface PromptCard {
  id: string;
  emoji?: string;
  label: string;
  description?: string;
}

/** `emoji label`, or just `label` when the card has no emoji. */
export function cardTitle(c: { emoji?: string; label: string }): string {
  return c.emoji ? `${c.emoji} ${c.label}` : c.label;
}

/**
 * Input: the cards in display order. Output: `## Currently available cards`, one compact line per
 * card, `- id: label` (about 8 tokens; the emoji and description are left out: list_manifests and
 * read_manifest_meta give them when a request needs them, so a dashboard of 200 cards costs about
 * 1 600 tokens per request instead of 7 000).
 */
export function cardsBlock(cards: readonly PromptCard[]): string {
  const lines = ['## Currently available cards'];
  if (cards.length === 0) {
    lines.push('There are no cards yet.');
    return lines.join('\n');
  }
  lines.push('`id: label` per card; descriptions: list_manifests; fields: read_manifest_meta.');
  for (const c of cards) lines.push(`- ${c.id}: ${isolateText(c.label)}`);
  return lines.join('\n');
}

/** The date a report line shows: its document date, else the day it was ingested, else "undated". */
function reportDate(r: ReportInfo): string {
  return r.documentDate ?? r.ingestedAt?.slice(0, 10) ?? 'undated';
}

/**
 * Input: the reports, newest first (`listReports()` in src/reports/report-catalogue.ts).
 * Output: `## Available reports`: `- name: title (date)` per report, withheld ones marked
 * "content withheld pending OCR verification", at most MAX_PROMPT_REPORTS
 * lines and then `- N omitted`.
 */
export function reportsBlock(reports: readonly ReportInfo[]): string {
  const lines = ['## Available reports'];
  if (reports.length === 0) {
    lines.push('There are no reports yet.');
    return lines.join('\n');
  }
  lines.push('Read one with read_report, passing its name.');
  for (const r of reports.slice(0, MAX_PROMPT_REPORTS)) {
    const withheld = r.withheld
      ? ', content withheld pending OCR verification'
      : r.status === 'processing'
        ? ', still being read'
        : r.status === 'rejected'
          ? ', rejected: no content'
          : '';
    lines.push(`- ${r.name}: ${firstLine(r.title, CARD_DESCRIPTION_CHARS)} (${reportDate(r)}${withheld})`);
  }
  if (reports.length > MAX_PROMPT_REPORTS) lines.push(`- ${reports.length - MAX_PROMPT_REPORTS} omitted`);
  return lines.join('\n');
}
