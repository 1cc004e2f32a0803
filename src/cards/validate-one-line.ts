/**
 * Names are one line. A card's label, an input's label, placeholder and options, and a
 * reminder's label and title are shown as a single line: in a card's header, a form, Settings, a
 * notification, History's sentences ("Added a row to Weight"). A newline, tab or other control
 * character (or a Unicode line or paragraph separator) in one breaks those lines, or hides in
 * them. Such a text is refused on create and change (400 naming the field), not rewritten:
 * quietly joining the lines would store something other than what was asked for. A card file
 * written by hand loads as it is; the places that build sentences from these texts show each
 * break as a space (src/common/isolate-text.ts).
 */
import { formatPath, type Issue, isPlainObject, type Segment } from './field-issues.js';

/** C0 and C1 controls (newline, carriage return, tab, NUL …) and U+2028 / U+2029. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
const LINE_BREAKING = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

/** How a refused character is named in the message. */
function nameOf(ch: string): string {
  if (ch === '\n' || ch === '\r' || ch === '\u2028' || ch === '\u2029') return 'a line break';
  if (ch === '\t') return 'a tab';
  return `the control character U+${ch.codePointAt(0)?.toString(16).toUpperCase().padStart(4, '0')}`;
}

function lineIssue(value: unknown, where: Segment[]): Issue[] {
  if (typeof value !== 'string') return [];
  const m = LINE_BREAKING.exec(value);
  if (!m) return [];
  return [
    { path: where, message: `${formatPath(where)} must be one line of text; it holds ${nameOf(m[0])}` },
  ];
}

function optionIssues(options: unknown, at: Segment[]): Issue[] {
  if (!Array.isArray(options)) return [];
  return options.flatMap((o, j) =>
    isPlainObject(o)
      ? [...lineIssue(o.label, [...at, j, 'label']), ...lineIssue(o.value, [...at, j, 'value'])]
      : lineIssue(o, [...at, j]),
  );
}

function inputIssues(inputs: unknown, at: Segment[]): Issue[] {
  if (!Array.isArray(inputs)) return [];
  return inputs.flatMap((input, i) =>
    isPlainObject(input)
      ? [
          ...lineIssue(input.label, [...at, i, 'label']),
          ...lineIssue(input.placeholder, [...at, i, 'placeholder']),
          ...optionIssues(input.options, [...at, i, 'options']),
          ...(Array.isArray(input.emojis)
            ? input.emojis.flatMap((e, j) => lineIssue(e, [...at, i, 'emojis', j]))
            : []),
        ]
      : [],
  );
}

function reminderIssues(notifications: unknown): Issue[] {
  const items = isPlainObject(notifications) ? notifications.items : undefined;
  if (!Array.isArray(items)) return [];
  const at: Segment[] = ['meta', 'notifications', 'items'];
  return items.flatMap((item, i) =>
    isPlainObject(item)
      ? [...lineIssue(item.label, [...at, i, 'label']), ...lineIssue(item.title, [...at, i, 'title'])]
      : [],
  );
}

/**
 * Every one-line text of `meta` (a manifest's meta) that holds a line break or control
 * character, each named by its path (`meta.label`, `meta.writeable.inputs[0].options[1]`,
 * `meta.notifications.items[0].title`).
 */
export function oneLineIssues(meta: Record<string, unknown>): Issue[] {
  const writeable = isPlainObject(meta.writeable) ? meta.writeable : {};
  const view = isPlainObject(meta.view) ? meta.view : {};
  return [
    ...lineIssue(meta.label, ['meta', 'label']),
    ...lineIssue(meta.emoji, ['meta', 'emoji']),
    ...inputIssues(writeable.inputs, ['meta', 'writeable', 'inputs']),
    ...inputIssues(view.inputs, ['meta', 'view', 'inputs']),
    ...reminderIssues(meta.notifications),
  ];
}
