/**
 * Length limits on the texts of a card that a create or an update sets (src/limits.ts): the
 * label, the emoji, the description, and each input's label, placeholder, options and emoji. Checked on create and
 * patch only (REST, chat tools and MCP share the validator): a card file with longer texts still
 * loads as it is, nothing of a person's file is refused or cut.
 */
import { overLimit } from '../common/graphemes.js';
import {
  MAX_CARD_DESCRIPTION_CHARS,
  MAX_CARD_EMOJI_CHARS,
  MAX_CARD_LABEL_CHARS,
  MAX_INPUT_OPTIONS,
} from '../limits.js';
import { formatPath, type Issue, isPlainObject, type Segment } from './field-issues.js';

function tooLong(value: unknown, where: Segment[], max: number): Issue[] {
  if (typeof value !== 'string') return [];
  const over = overLimit(value, max);
  if (over === null) return [];
  const length = over === 'too long' ? 'too long' : `${over} characters long`;
  return [{ path: where, message: `${formatPath(where)} is ${length}; at most ${max}` }];
}

function optionIssues(options: unknown, at: Segment[]): Issue[] {
  if (!Array.isArray(options)) return [];
  if (options.length > MAX_INPUT_OPTIONS) {
    return [
      {
        path: at,
        message: `${formatPath(at)} lists ${options.length} options; at most ${MAX_INPUT_OPTIONS}`,
      },
    ];
  }
  return options.flatMap((o, j) =>
    isPlainObject(o)
      ? [
          ...tooLong(o.label, [...at, j, 'label'], MAX_CARD_LABEL_CHARS),
          ...tooLong(o.value, [...at, j, 'value'], MAX_CARD_LABEL_CHARS),
        ]
      : tooLong(o, [...at, j], MAX_CARD_LABEL_CHARS),
  );
}

function emojiIssues(emojis: unknown, at: Segment[]): Issue[] {
  if (!Array.isArray(emojis)) return [];
  if (emojis.length > MAX_INPUT_OPTIONS) {
    return [
      { path: at, message: `${formatPath(at)} lists ${emojis.length} emoji; at most ${MAX_INPUT_OPTIONS}` },
    ];
  }
  return emojis.flatMap((e, j) => tooLong(e, [...at, j], MAX_CARD_EMOJI_CHARS));
}

function inputIssues(inputs: unknown, at: Segment[]): Issue[] {
  if (!Array.isArray(inputs)) return [];
  return inputs.flatMap((input, i) =>
    isPlainObject(input)
      ? [
          ...tooLong(input.label, [...at, i, 'label'], MAX_CARD_LABEL_CHARS),
          ...tooLong(input.placeholder, [...at, i, 'placeholder'], MAX_CARD_LABEL_CHARS),
          ...optionIssues(input.options, [...at, i, 'options']),
          ...emojiIssues(input.emojis, [...at, i, 'emojis']),
        ]
      : [],
  );
}

/** Every text of `m` (a manifest) over its limit, each named by its path. */
export function textLengthIssues(m: Record<string, unknown>, meta: Record<string, unknown>): Issue[] {
  const writeable = isPlainObject(meta.writeable) ? meta.writeable : {};
  const view = isPlainObject(meta.view) ? meta.view : {};
  return [
    ...tooLong(meta.label, ['meta', 'label'], MAX_CARD_LABEL_CHARS),
    ...tooLong(meta.emoji, ['meta', 'emoji'], MAX_CARD_EMOJI_CHARS),
    ...tooLong(meta.description, ['meta', 'description'], MAX_CARD_DESCRIPTION_CHARS),
    ...tooLong(m.description, ['description'], MAX_CARD_DESCRIPTION_CHARS),
    ...inputIssues(writeable.inputs, ['meta', 'writeable', 'inputs']),
    ...inputIssues(view.inputs, ['meta', 'view', 'inputs']),
  ];
}
