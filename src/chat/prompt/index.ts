/** The chat system prompt: base text, catalogues, date table, segments and voice mode. Re-exports only. */
export { DEFAULT_BASE_PROMPT } from './base-prompt.js';
export { DATE_TABLE_FIRST_OFFSET, DATE_TABLE_LAST_OFFSET, dateContextBlock } from './date-table.js';
export { compactMeta, type FocusCard, focusBlock, MAX_FOCUS_META_BYTES } from './focus-block.js';
export {
  CARD_DESCRIPTION_CHARS,
  cardsBlock,
  cardTitle,
  MAX_PROMPT_REPORTS,
  type PromptCard,
  reportsBlock,
} from './instance-blocks.js';
export {
  BLOCK_SEPARATOR,
  buildPromptSegments,
  flatSystemText,
  type PromptInputs,
  type PromptSegments,
  systemMessage,
} from './segments.js';
export {
  CATEGORY_HINTS,
  categoriesBlock,
  combinationCardBlock,
  docsBlock,
  haeMetricsBlock,
  rowPathBlock,
} from './static-blocks.js';
export {
  findVoiceEnvelope,
  parseVoiceReply,
  scanObject,
  speakableText,
  VOICE_ENVELOPE,
  type VoiceReply,
} from './voice.js';
