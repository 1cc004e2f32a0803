/**
 * The system prompt as three ordered segments and the system message built from them (docs/CHAT-AGENT.md;
 * today's date near the top of the prompt defeated prefix caching).
 *
 *   static   base prompt + catalogues            breakpoint   changes with a deploy
 *   instance cards + reports                      breakpoint   changes with a card or report
 *   volatile today's date + card in focus         none         changes every request
 *
 * Caching is a prefix match, so the static text must be byte-identical for identical inputs:
 * nothing here reads a clock, a random source or a map's iteration order.
 */

import type { ReportInfo } from '../../reports/report-catalogue.js';
import type { SystemMessage, TextPart } from '../gateway/types.js';
import type { DocEntry } from '../tools/doc-catalogue.js';
import { dateContextBlock } from './date-table.js';
import { type FocusCard, focusBlock } from './focus-block.js';
import { cardsBlock, type PromptCard, reportsBlock } from './instance-blocks.js';
import {
  categoriesBlock,
  combinationCardBlock,
  docsBlock,
  haeMetricsBlock,
  rowPathBlock,
} from './static-blocks.js';

/** Separator between blocks inside a segment and between segments in the flat form. */
export const BLOCK_SEPARATOR = '\n\n';

/** Everything the prompt is built from. */
export interface PromptInputs {
  /** The base prompt: DEFAULT_BASE_PROMPT(...) or the operator's HEALTH_SYSTEM_PROMPT. */
  basePrompt: string;
  /** The cards, in the order they should be listed. */
  cards: PromptCard[];
  /** The reports, newest first (listReports()). */
  reports: ReportInfo[];
  /** The allowlisted docs that exist (availableDocs()). */
  docs: DocEntry[];
  /** The user's calendar date, `YYYY-MM-DD` (todayIn(timeZone)). */
  today: string;
  /** The IANA time zone `today` was taken in. */
  timeZone: string;
  /** The card the user has open, when it resolves. */
  focusCard?: FocusCard;
  /** More static blocks appended after the built-in ones. */
  extraStaticBlocks?: string[];
}

/** The three segments' texts, in sending order. */
export interface PromptSegments {
  static: string;
  instance: string;
  volatile: string;
}

/** Joins non-empty blocks (trailing whitespace trimmed) with BLOCK_SEPARATOR. */
function joinBlocks(blocks: readonly string[]): string {
  return blocks
    .map((b) => b.trimEnd())
    .filter((b) => b.trim() !== '')
    .join(BLOCK_SEPARATOR);
}

/**
 * Input: PromptInputs. Output: the static segment (base prompt, Available docs, Manifest
 * categories, combination cards, row paths, Health Auto Export metrics, then extraStaticBlocks in
 * order), the instance
 * segment (Currently available cards, Available reports) and the volatile segment (Today's date,
 * then Card in focus when focusCard is given). Pure: identical inputs give identical strings.
 * Source: docs/CHAT-AGENT.md "Prompt caching" (segment contents and order).
 */
export function buildPromptSegments(inputs: PromptInputs): PromptSegments {
  const staticText = joinBlocks([
    inputs.basePrompt,
    docsBlock(inputs.docs),
    categoriesBlock(),
    combinationCardBlock(),
    rowPathBlock(),
    haeMetricsBlock(),
    ...(inputs.extraStaticBlocks ?? []),
  ]);
  const instance = joinBlocks([cardsBlock(inputs.cards), reportsBlock(inputs.reports)]);
  const volatile = joinBlocks([
    dateContextBlock(inputs.today, inputs.timeZone),
    inputs.focusCard ? focusBlock(inputs.focusCard) : '',
  ]);
  return { static: staticText, instance, volatile };
}

/**
 * Input: text parts. Output: their texts joined with BLOCK_SEPARATOR: the flat system prompt
 * sent when caching is off, equal to what the parts carry (the switch changes
 * the payload shape, not the order or the bytes).
 */
export function flatSystemText(parts: readonly TextPart[]): string {
  return parts.map((p) => p.text).join(BLOCK_SEPARATOR);
}

/**
 * Input: the segments; `cache` (false when CHAT_PROMPT_CACHE=0); `voiceEnvelope` for voice turns
 * (VOICE_ENVELOPE), which goes in front of the static text because it announces that the
 * original prompt follows. Output: the system message. Cache on: three text parts, static and
 * instance each with an ephemeral `cache_control` breakpoint, volatile with none (marking it
 * would write a new cache entry on every request). Cache off: one flat string,
 * `flatSystemText(parts)`. Source: docs/CHAT-AGENT.md "Prompt caching".
 */
export function systemMessage(
  segs: PromptSegments,
  opts: { cache: boolean; voiceEnvelope?: string },
): SystemMessage {
  const parts: TextPart[] = [
    {
      type: 'text',
      text: (opts.voiceEnvelope ? opts.voiceEnvelope + BLOCK_SEPARATOR : '') + segs.static,
      cache_control: { type: 'ephemeral' },
    },
    { type: 'text', text: segs.instance, cache_control: { type: 'ephemeral' } },
    { type: 'text', text: segs.volatile },
  ];
  return { role: 'system', content: opts.cache ? parts : flatSystemText(parts) };
}
