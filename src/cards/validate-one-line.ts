/**
 * Names are one line. A card's label, an input's label, placeholder and options, and a
 * reminder's label and title are shown as a single line: in a card's header, a form, Settings, a
 * notification, History's sentences ("Added a row to Weight"). A newline, tab or other control
 * character (or a Unicode line or paragraph separator) in one breaks those lines, or hides in
 * them; an invisible formatting character (a direction override, a zero-width space) changes
 * how it reads without being seen (src/common/control-characters.ts). Such a text is refused on create and change (400 naming the field), not rewritten:
 * quietly joining the lines would store something other than what was asked for. A card file
 * written by hand loads as it is; the places that build sentences from these texts show each
 * break as a space (src/common/isolate-text.ts).
 */
import { firstControl, nameControl } from '../common/control-characters.js';
import { formatPath, type Issue, isPlainObject, type Segment } from './field-issues.js';

function lineIssue(value: unknown, where: Segment[]): Issue[] {
  if (typeof value !== 'string') return [];
  const ch = firstControl(value);
  if (ch === undefined) return [];
  return [
    { path: where, message: `${formatPath(where)} must be one line of text; it holds ${nameControl(ch)}` },
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
