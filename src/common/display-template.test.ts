import { describe, expect, it } from 'vitest';
import { templateIds, templateMeta } from '../../test/helpers/templates.js';
import {
  CHECK_MARK,
  getValue,
  isEmptyValue,
  isTruthy,
  lookupEmoji,
  parseTemplate,
  renderTemplate,
  templateFields,
  validateTemplate,
  valueText,
} from './display-template.js';

type Json = Record<string, unknown>;

/** Every card template in templates/, with its `meta`. */
function loadExamples(): { id: string; meta: Json }[] {
  return templateIds().map((id) => ({ id, meta: templateMeta(id) as Json }));
}

/** Every display string holding a placeholder, as `id:property` → {template, emojiMap}. */
function exampleTemplates(): Map<string, { template: string; emojiMap?: Json }> {
  const out = new Map<string, { template: string; emojiMap?: Json }>();
  for (const { meta } of loadExamples()) {
    for (const viewName of ['view', 'trends', 'reports', 'calendar', 'dayDetail']) {
      const view = meta[viewName] as Json | undefined;
      const display = view?.display as Json | undefined;
      if (!display) continue;
      for (const [prop, value] of Object.entries(display)) {
        if (typeof value === 'string' && value.includes('{')) {
          out.set(`${meta.id}:${viewName}.${prop}`, {
            template: value,
            emojiMap: display.emojiMap as Json | undefined,
          });
        }
      }
      const marker = (view as Json).marker as Json | undefined;
      if (marker && typeof marker.template === 'string') {
        out.set(`${meta.id}:${viewName}.marker`, { template: marker.template });
      }
    }
  }
  return out;
}

const LONG_NOTE =
  'Slept badly after a late coffee, woke at 3 and again at 5; walked 40 minutes at lunch, felt better by the evening 🌇 and went to bed early';

/** For each template's display string: sample rows and what each must render to. */
const EXPECTED: Record<string, [Json | undefined, string][]> = {
  'active-minutes:view.template': [
    [{ date: '2026-04-20', minutes: 42 }, '42'],
    [{ date: '2026-04-20', minutes: 29.6 }, '30'],
  ],
  'body-temperature:view.template': [
    [{ date: '2026-04-20', celsius: 36.65 }, '36.7'],
    [{ date: '2026-04-20', celsius: 37 }, '37.0'],
    [{ date: '2026-04-20', celsius: 36.1 + 0.2 }, '36.3'],
  ],
  'body-temperature:view.secondary': [
    [{ date: '2026-04-20', celsius: 38.2, where: 'ear', time: '07:10' }, 'ear 07:10'],
    [{ date: '2026-04-20', celsius: 38.2 }, ' '],
  ],
  'bp:view.template': [[{ date: '2026-04-20', systolic: 128, diastolic: 82 }, '128/82']],
  'bp:view.secondary': [
    [{ date: '2026-04-20', systolic: 128, diastolic: 82, pulse: 64, time: '07:45' }, 'pulse 64 · 07:45'],
    [{ date: '2026-04-20', systolic: 128, diastolic: 82 }, 'pulse – · '],
  ],
  'caffeine:view.template': [[{ date: '2026-04-20', mg: 95 }, '95']],
  'caffeine:view.secondary': [
    [{ date: '2026-04-20', mg: 65, drink: 'espresso', time: '10:30' }, 'last: espresso at 10:30'],
    [{ date: '2026-04-20', mg: 65 }, 'last:  at ?'],
  ],
  'cycle:view.template': [
    [{ date: '2026-04-20', flow: 'light' }, '🩷 light'],
    [{ date: '2026-04-20', flow: 'unknown' }, 'unknown unknown'],
  ],
  'cycle:view.secondary': [
    [{ date: '2026-04-20', flow: 'none' }, ''],
    [{ date: '2026-04-20', flow: 'none', note: LONG_NOTE }, `${[...LONG_NOTE].slice(0, 40).join('')}…`],
  ],
  'energy:view.template': [[{ date: '2026-04-20', level: 4 }, '4/5']],
  'energy:view.secondary': [
    [{ date: '2026-04-20', level: 2, slump: 'afternoon' }, 'slump: afternoon'],
    [{ date: '2026-04-20', level: 4 }, 'slump: none'],
  ],
  'glucose:view.template': [
    [{ date: '2026-04-20', mmol: 5.35 }, '5.4'],
    [{ date: '2026-04-20', mmol: 6 }, '6.0'],
  ],
  'glucose:view.secondary': [
    [{ date: '2026-04-20', mmol: 5.4, context: 'fasting', time: '06:50' }, 'fasting 06:50'],
  ],
  'heart-rate-resting:view.template': [[{ date: '2026-04-20', bpm: 58 }, '58']],
  'hydration:view.template': [[{ date: '2026-04-20', glasses: 0 }, '0']],
  'mood:view.template': [
    [{ date: '2026-04-20', mood: 4 }, '🙂'],
    [{ date: '2026-04-20', mood: '1' }, '😞'],
    [{ date: '2026-04-20', mood: 9 }, '9'],
  ],
  'mood:view.secondary': [
    [{ date: '2026-04-20', mood: 4, note: 'vivid dreams' }, 'vivid dreams'],
    [{ date: '2026-04-20', mood: 4 }, ''],
    [{ date: '2026-04-20', mood: 4, note: LONG_NOTE }, `${[...LONG_NOTE].slice(0, 60).join('')}…`],
  ],
  'notes:view.template': [
    [{ date: '2026-04-20', text: 'Short one ✍️' }, 'Short one ✍️'],
    [{ date: '2026-04-20', text: LONG_NOTE }, `${[...LONG_NOTE].slice(0, 80).join('')}…`],
    [{ date: '2026-04-20', text: '   ' }, '(empty note)'],
    [{ date: '2026-04-20' }, '(empty note)'],
    [undefined, '(empty note)'],
  ],
  'notes:view.secondary': [[{ date: '2026-04-20', text: 'x' }, '2026-04-20']],
  'resting-hrv:view.template': [[{ date: '2026-04-20', ms: 61.4 }, '61']],
  'sleep-hours:view.template': [
    [{ date: '2026-04-20', hours: 7.25 }, '7.3'],
    [{ date: '2026-04-20', hours: 6.1 + 0.8 }, '6.9'],
    [{ date: '2026-04-20', hours: '8' }, '8.0'],
  ],
  'sleep-hours:view.secondary': [
    [{ date: '2026-04-20', hours: 7 }, 'woke 0× · quality –/5'],
    [{ date: '2026-04-20', hours: 7, wakeUps: 2, quality: 4 }, 'woke 2× · quality 4/5'],
  ],
  'spo2:view.template': [[{ date: '2026-04-20', pct: 96.6 }, '97']],
  'steps:view.template': [[{ date: '2026-04-20', count: 12345 }, '12345']],
  'symptoms:view.secondaryTemplate': [
    [{ symptom: 'Knee pain', severity: 'mild', note: 'after running' }, 'mild · after running'],
    [{ symptom: 'Headache' }, '– · no note'],
  ],
  'waist:view.template': [[{ date: '2026-04-20', cm: 88.25 }, '88.3']],
  'weight:view.template': [
    [{ date: '2026-04-20', kg: 85.5 }, '85.5'],
    [{ date: '2026-04-20', kg: 85.25 }, '85.3'],
    [{ date: '2026-04-20', kg: 80 }, '80.0'],
    [{ date: '2026-04-20', kg: JSON.parse('1e999') }, ''],
  ],
  'weight:view.secondary': [
    [{ date: '2026-04-20', kg: 85.5, fatPercent: 18.5 }, '18.5% body fat'],
    [{ date: '2026-04-20', kg: 85.5 }, ''],
  ],
  'workouts:view.template': [
    [{ date: '2026-04-20', trained: true }, 'Trained'],
    [{ date: '2026-04-20', trained: false }, 'Rest day'],
    [{ date: '2026-04-20' }, 'Rest day'],
  ],
  'workouts:view.secondary': [
    [{ date: '2026-04-20', trained: true, type: 'run', durationMin: 40 }, '🏃 run · 40 min'],
    [{ date: '2026-04-20', trained: false }, '  · – min'],
  ],
};

describe('every display template of the card templates', () => {
  const found = exampleTemplates();

  it('has an expectation here for each display template, and no stale one', () => {
    expect([...found.keys()].sort()).toEqual(Object.keys(EXPECTED).sort());
  });

  for (const [key, cases] of Object.entries(EXPECTED)) {
    it(`${key} renders as expected`, () => {
      const t = found.get(key);
      expect(t, `${key} is not in the templates`).toBeDefined();
      if (!t) return;
      for (const [row, expected] of cases) {
        expect(renderTemplate(t.template, row, { emojiMap: t.emojiMap })).toBe(expected);
      }
    });
  }

  it('validates every display template as clean', () => {
    for (const [key, t] of found) expect(validateTemplate(t.template), key).toEqual([]);
  });

  it('lists the fields each display template reads', () => {
    const fields = (key: string) => templateFields(found.get(key)?.template);
    expect(fields('bp:view.template')).toEqual(['systolic', 'diastolic']);
    expect(fields('sleep-hours:view.secondary')).toEqual(['wakeUps', 'quality']);
    expect(fields('notes:view.template')).toEqual(['text']);
    expect(fields('workouts:view.template')).toEqual(['trained']);
    expect(fields('symptoms:view.secondaryTemplate')).toEqual(['severity', 'note']);
  });

  it('reads legacy primary/secondary paths with getValue', () => {
    const display = { primary: 'latest.systolic', secondary: 'latest.diastolic' };
    const ctx = { latest: { date: '2026-04-20', systolic: 128, diastolic: 82 } };
    expect(getValue(ctx, display.primary)).toBe(128);
    expect(getValue(ctx, display.secondary)).toBe(82);
  });

  it('reads a latest.-path on the row itself, as the older metric-card did, unless the row has a latest field', () => {
    const row = { date: '2026-04-20', systolic: 128, diastolic: 82 };
    expect(renderTemplate('{latest.systolic}/{latest.diastolic}', row)).toBe('128/82');
    expect(getValue(row, 'latest.date')).toBe('2026-04-20');
    expect(getValue({ latest: { kg: 1 }, kg: 2 }, 'latest.kg')).toBe(1);
    expect(getValue({ latest: 'x', kg: 2 }, 'latest.kg')).toBeUndefined();
  });
});

describe('emoji, non-finite numbers and float sums through the template language', () => {
  it('truncate(30) keeps the runner emoji whole', () => {
    const note = 'Ran 10k in the rain, legs ok 🏃 but knee sore later';
    const out = renderTemplate('{note:truncate(30)}', { date: '2026-04-20', note });
    expect(out).toBe('Ran 10k in the rain, legs ok 🏃…');
    expect(/\p{Cs}/u.test(out)).toBe(false);
    expect(out).not.toContain('\uFFFD');
  });

  it('non-finite numbers render as missing (fallback or nothing), never NaN or Infinity', () => {
    for (const kg of [Number.NaN, Infinity, -Infinity, JSON.parse('1e999')]) {
      expect(renderTemplate('{kg}', { kg })).toBe('');
      expect(renderTemplate('{kg:round(1)|—}', { kg })).toBe('—');
      expect(renderTemplate('{kg|—} kg', { kg })).toBe('— kg');
    }
  });

  it('float artefacts never show, plain or rounded', () => {
    expect(renderTemplate('{total}', { total: 0.1 + 0.2 })).toBe('0.3');
    expect(renderTemplate('{total} L', { total: 0.7 + 0.1 })).toBe('0.8 L');
    expect(renderTemplate('{total:round(2)}', { total: 101.1 + 50.2 + 51.3 })).toBe('202.60');
    expect(renderTemplate('{x:round(2)}', { x: 1.005 })).toBe('1.01');
    expect(renderTemplate('{x:round(1)}', { x: -0.04 })).toBe('0.0');
  });
});

describe('renderTemplate grammar', () => {
  const row = {
    date: '2026-04-20',
    kg: 85.25,
    name: 'Ada',
    zero: 0,
    no: false,
    yes: true,
    empty: '',
    blank: '  ',
    nil: null,
    list: ['a', 'b'],
    none: [],
    bp: { systolic: 128, reading: { arm: 'left' } },
    items: [{ name: 'Magnesium' }],
    'dotted.key': 'literal',
    mood: 3,
    note: 'Café ☕ with Zoë 👩‍👩‍👧‍👦 and more words',
  };

  it('fills {key} and dotted paths', () => {
    expect(renderTemplate('Hi {name}!', row)).toBe('Hi Ada!');
    expect(renderTemplate('{bp.systolic}/{bp.reading.arm}', row)).toBe('128/left');
    expect(renderTemplate('{items.0.name}', row)).toBe('Magnesium');
    expect(renderTemplate('{dotted.key}', row)).toBe('literal');
    expect(renderTemplate('{ name }', row)).toBe('Ada');
  });

  it('renders unresolved keys as nothing, and never reads the prototype', () => {
    expect(renderTemplate('[{missing}]', row)).toBe('[]');
    expect(renderTemplate('[{bp.missing.deeper}]', row)).toBe('[]');
    expect(renderTemplate('[{name.length}]', row)).toBe('[]');
    expect(renderTemplate('[{constructor}{__proto__}{toString}]', row)).toBe('[]');
    expect(renderTemplate('[{nil}]', row)).toBe('[]');
    expect(renderTemplate('{name}', undefined)).toBe('');
  });

  it('stringifies other values', () => {
    expect(renderTemplate('{zero} {no} {yes}', row)).toBe('0 false true');
    expect(renderTemplate('{list}', row)).toBe('a, b');
    expect(renderTemplate('{bp.reading}', row)).toBe('{"arm":"left"}');
  });

  it('round(N)', () => {
    expect(renderTemplate('{kg:round(1)}', row)).toBe('85.3');
    expect(renderTemplate('{kg:round(0)}', row)).toBe('85');
    expect(renderTemplate('{kg:round(3)}', row)).toBe('85.250');
    expect(renderTemplate('{name:round(1)}', row)).toBe('Ada');
    expect(renderTemplate('{missing:round(1)}', row)).toBe('');
    expect(renderTemplate('{missing:round(1)|–}', row)).toBe('–');
  });

  it(':emoji with keyed and flat maps, falling back to the raw value', () => {
    const keyed = { mood: { '3': '😐' } };
    const flat = { '3': '😐', true: '💪' };
    expect(renderTemplate('{mood:emoji}', row, { emojiMap: keyed })).toBe('😐');
    expect(renderTemplate('{mood:emoji}', row, { emojiMap: flat })).toBe('😐');
    expect(renderTemplate('{yes:emoji}', row, { emojiMap: flat })).toBe('💪');
    expect(renderTemplate('{zero:emoji}', row, { emojiMap: flat })).toBe('0');
    expect(renderTemplate('{mood:emoji}', row)).toBe('3');
    expect(renderTemplate('{latest.mood:emoji}', { latest: { mood: 3 } }, { emojiMap: keyed })).toBe('😐');
    expect(renderTemplate('{value:emoji}', { value: 3 }, { emojiMap: keyed, fieldName: 'mood' })).toBe('😐');
    expect(renderTemplate('{missing:emoji|🤷}', row, { emojiMap: flat })).toBe('🤷');
  });

  it(':truncate(N) counts user-perceived characters', () => {
    expect(renderTemplate('{note:truncate(12)}', row)).toBe('Café ☕ with …');
    expect(renderTemplate('{note:truncate(17)}', row)).toBe('Café ☕ with Zoë 👩‍👩‍👧‍👦…');
    expect(renderTemplate('{note:truncate(16)}', row)).toBe('Café ☕ with Zoë …');
    expect(renderTemplate('{name:truncate(3)}', row)).toBe('Ada');
    expect(renderTemplate('{kg:truncate(2)}', row)).toBe('85…');
  });

  it(':check', () => {
    expect(renderTemplate('{yes:check}', row)).toBe(CHECK_MARK);
    expect(renderTemplate('[{no:check}]', row)).toBe('[]');
    expect(renderTemplate('{no:check|✗}', row)).toBe('✗');
    expect(renderTemplate('{missing:check|✗}', row)).toBe('✗');
    expect(renderTemplate('{v:check}', { v: 'false' })).toBe('');
    expect(renderTemplate('{v:check}', { v: 'yes' })).toBe(CHECK_MARK);
  });

  it('|fallback, including blank, numeric and punctuated fallbacks', () => {
    expect(renderTemplate('{missing|n/a}', row)).toBe('n/a');
    expect(renderTemplate('[{missing|}]', row)).toBe('[]');
    expect(renderTemplate('{missing|0}', row)).toBe('0');
    expect(renderTemplate('{empty|(none yet)}', row)).toBe('(none yet)');
    expect(renderTemplate('{blank|(none)}', row)).toBe('(none)');
    expect(renderTemplate('{none|no items}', row)).toBe('no items');
    expect(renderTemplate('{zero|none}', row)).toBe('0');
    expect(renderTemplate('{no|none}', row)).toBe('false');
    expect(renderTemplate('{missing|what? no: idea}', row)).toBe('what? no: idea');
    expect(renderTemplate('{missing|a|b}', row)).toBe('a|b');
    expect(renderTemplate('{missing| 2 x (daily) }', row)).toBe(' 2 x (daily) ');
  });

  it('?yes:no on truthiness, with emoji and spaces in the branches', () => {
    expect(renderTemplate('{yes?✅ Done today:⏳ Not yet}', row)).toBe('✅ Done today');
    expect(renderTemplate('{no?✅ Done today:⏳ Not yet}', row)).toBe('⏳ Not yet');
    expect(renderTemplate('{zero?some:none}', row)).toBe('none');
    expect(renderTemplate('{empty?some:none}', row)).toBe('none');
    expect(renderTemplate('{missing?some:none}', row)).toBe('none');
    expect(renderTemplate('{name?👩‍💻 here:}', row)).toBe('👩‍💻 here');
    expect(renderTemplate('[{no?yes only}]', row)).toBe('[]');
    expect(renderTemplate('{yes?at 7:30:never}', row)).toBe('at 7');
    expect(renderTemplate('{v?on:off}', { v: 'false' })).toBe('off');
  });

  it('modifier plus fallback, chained modifiers, unknown modifiers', () => {
    expect(renderTemplate('{note:truncate(4)|(no note today)}', row)).toBe('Café…');
    expect(renderTemplate('{missing:truncate(4)|(no note today)}', row)).toBe('(no note today)');
    expect(renderTemplate('{kg:round(0):emoji}', row, { emojiMap: { '85': '🎯' } })).toBe('🎯');
    expect(renderTemplate('{kg:shout}', row)).toBe('85.25');
    expect(renderTemplate('{kg:shout:round(1)}', row)).toBe('85.3');
    expect(renderTemplate('{kg:round(x)}', row)).toBe('85.25');
    expect(renderTemplate('{kg:round}', row)).toBe('85.25');
    expect(renderTemplate('{name:truncate(0)}', row)).toBe('Ada');
    expect(renderTemplate('{kg:round(1) }', row)).toBe('85.3');
  });

  it('braces: nested, unclosed, stray, empty', () => {
    expect(renderTemplate('{{name}}', row)).toBe('{Ada}');
    expect(renderTemplate('a {b {name} c', row)).toBe('a {b Ada c');
    expect(renderTemplate('set {a', row)).toBe('set {a');
    expect(renderTemplate('{', row)).toBe('{');
    expect(renderTemplate('}{name}}', row)).toBe('}Ada}');
    expect(renderTemplate('{} {|x} {?a:b}', row)).toBe('{} {|x} {?a:b}');
    expect(renderTemplate('5/5 } done', row)).toBe('5/5 } done');
    expect(renderTemplate('', row)).toBe('');
    expect(renderTemplate('no placeholders', row)).toBe('no placeholders');
  });

  it('renders a non-string template as nothing', () => {
    expect(renderTemplate(undefined as unknown as string, row)).toBe('');
    expect(renderTemplate(42 as unknown as string, row)).toBe('');
  });
});

describe('helpers', () => {
  it('getValue', () => {
    expect(getValue({ a: { b: { c: 1 } } }, 'a.b.c')).toBe(1);
    expect(getValue({ a: [10, 20] }, 'a.1')).toBe(20);
    expect(getValue({ a: 1 }, 'a.b')).toBeUndefined();
    expect(getValue(undefined, 'a')).toBeUndefined();
    expect(getValue('text', 'length')).toBeUndefined();
    expect(getValue({}, 'hasOwnProperty')).toBeUndefined();
  });

  it('isEmptyValue and isTruthy', () => {
    for (const v of [undefined, null, '', '  ', Number.NaN, Infinity, []]) expect(isEmptyValue(v)).toBe(true);
    for (const v of [0, false, 'x', {}, ['a']]) expect(isEmptyValue(v)).toBe(false);
    for (const v of [true, 1, -1, 'yes', 'x', ['a'], {}]) expect(isTruthy(v)).toBe(true);
    for (const v of [
      false,
      0,
      Number.NaN,
      '',
      ' ',
      'false',
      'FALSE',
      '0',
      'no',
      'off',
      [],
      null,
      undefined,
    ]) {
      expect(isTruthy(v)).toBe(false);
    }
  });

  it('valueText', () => {
    expect(valueText(0.1 + 0.2)).toBe('0.3');
    expect(valueText(Number.NaN)).toBe('');
    expect(valueText(undefined)).toBe('');
    expect(valueText([1, null, 'x'])).toBe('1, x');
  });

  it('lookupEmoji ignores non-string entries and prototype keys', () => {
    expect(lookupEmoji({ '1': 5 }, 'v', 1)).toBeUndefined();
    expect(lookupEmoji({}, 'v', 'constructor')).toBeUndefined();
    expect(lookupEmoji(null, 'v', 1)).toBeUndefined();
    expect(lookupEmoji({ v: { '2': '✌️' }, '2': '2️⃣' }, 'v', 2)).toBe('✌️');
    expect(lookupEmoji({ v: { '1': '☝️' }, '2': '2️⃣' }, 'v', 2)).toBe('2️⃣');
  });

  it('templateFields and parseTemplate', () => {
    expect(templateFields('{a} {b:round(1)} {a|x} {c?y:n} {} {d')).toEqual(['a', 'b', 'c']);
    expect(templateFields(undefined)).toEqual([]);
    expect(parseTemplate('Type {type|?}')).toEqual([
      { kind: 'text', text: 'Type ' },
      { kind: 'field', key: 'type', modifiers: [], fallback: '?', index: 5 },
    ]);
  });
});

describe('validateTemplate', () => {
  const codes = (t: unknown) => validateTemplate(t).map((p) => p.code);

  it('accepts every feature of the grammar', () => {
    expect(
      validateTemplate(
        '{a} {a.b} {a:round(2)} {a:emoji} {a:truncate(80)|(none)} {a:check} {a|} {a?✅ yes:❌ no} {a:round(0):emoji}',
      ),
    ).toEqual([]);
  });

  it('reports unclosed and stray braces with their position', () => {
    expect(validateTemplate('Weight {kg')).toEqual([
      { code: 'unclosed-brace', message: expect.stringContaining('no matching'), index: 7 },
    ]);
    expect(codes('{{kg}}')).toEqual(['unclosed-brace', 'unmatched-close-brace']);
    expect(codes('a } b')).toEqual(['unmatched-close-brace']);
  });

  it('reports unknown and malformed modifiers', () => {
    expect(validateTemplate('{kg:rnd(1)}')).toEqual([
      { code: 'unknown-modifier', message: expect.stringContaining('"rnd"'), index: 4 },
    ]);
    expect(codes('{kg:round(1}')).toEqual(['malformed-modifier']);
    expect(codes('{kg:}')).toEqual(['malformed-modifier']);
  });

  it('reports bad round/truncate arguments', () => {
    for (const t of ['{kg:round}', '{kg:round()}', '{kg:round(-1)}', '{kg:round(1.5)}', '{kg:round(21)}']) {
      expect(codes(t), t).toEqual(['bad-argument']);
    }
    for (const t of ['{n:truncate}', '{n:truncate(0)}', '{n:truncate(abc)}', '{n:truncate(10001)}']) {
      expect(codes(t), t).toEqual(['bad-argument']);
    }
    expect(codes('{n:emoji(1)}')).toEqual(['bad-argument']);
    expect(codes('{n:round( 2 )}')).toEqual([]);
  });

  it('reports empty keys and non-strings', () => {
    expect(codes('{} {|x}')).toEqual(['empty-key', 'empty-key']);
    expect(codes(undefined)).toEqual(['not-a-string']);
    expect(codes({ template: '{x}' })).toEqual(['not-a-string']);
  });

  it('is not fooled by ? or : inside a fallback', () => {
    expect(validateTemplate('{note|what? (none): ok}')).toEqual([]);
    expect(renderTemplate('{note|what? (none): ok}', {})).toBe('what? (none): ok');
  });
});

describe('numbers written by the caller (the person’s locale)', () => {
  it('plain numbers and round(N) go through formatNumber; text stays as written', () => {
    const formatNumber = (n: number, decimals?: number) =>
      new Intl.NumberFormat('de-DE', {
        minimumFractionDigits: decimals,
        maximumFractionDigits: decimals ?? 20,
      }).format(n);
    const row = { kg: 72.44, n: 8432, note: '1.5 l' };
    expect(renderTemplate('{kg:round(1)} · {n} · {note}', row, { formatNumber })).toBe(
      '72,4 · 8.432 · 1.5 l',
    );
    expect(renderTemplate('{kg:round(1)} · {n}', row)).toBe('72.4 · 8432');
  });
});

describe('emojiMap keys and values as numbers', () => {
  it('finds the entry of the same number when the text differs', () => {
    expect(lookupEmoji({ mood: { '4': '🙂' } }, 'mood', '4.0')).toBe('🙂');
    expect(lookupEmoji({ mood: { '4.0': '🙂' } }, 'mood', 4)).toBe('🙂');
    expect(lookupEmoji({ '1': '😩' }, 'mood', 1.0)).toBe('😩');
    expect(renderTemplate('{mood:emoji}', { mood: '4.0' }, { emojiMap: { '4': '🙂' } })).toBe('🙂');
    // text that is no number finds only its own key
    expect(lookupEmoji({ '': '?', '0': '0️⃣' }, 'mood', ' ')).toBeUndefined();
  });
});
