/**
 * The web app's one way of writing numbers and days: the person's locale (the browser's language,
 * as Intl picks it) applied through src/common/locale-format.ts. Card headlines, trend deltas,
 * chart axes, legends and day labels all come through here, so a German browser reads 72,4 kg
 * and "20. April" everywhere, an English one 72.4 kg and "20 April".
 */
import { type RenderOptions, renderTemplate } from '../../src/common/display-template.js';
import {
  type DayStyle,
  firstDayOfWeek,
  formatCompact,
  formatDay,
  formatDaySeconds,
  formatNumber,
  formatSigned,
  weekdayNames,
} from '../../src/common/locale-format.js';

/** The person's locale: undefined lets Intl use the browser's language. */
const LOCALE = undefined;

/**
 * The address of a card's CSV written for the person's language: where the decimal sign is a
 * comma (German, French…) the server writes `;` between fields and 85,3, as Excel there expects.
 */
export function csvHref(cardId: string): string {
  const locale = new Intl.NumberFormat(LOCALE).resolvedOptions().locale;
  return `/api/manifests/${encodeURIComponent(cardId)}/export.csv?locale=${encodeURIComponent(locale)}`;
}

/** A number as the person reads it: `num(72.4)` → "72,4" in German; `decimals` fixes the decimals. */
export function num(x: number, decimals?: number): string {
  return formatNumber(x, { decimals, locale: LOCALE });
}

/**
 * `num`, but compact from `from` on (100 000 by default): "1B", "1 Mrd.", "1E308" for values
 * that must fit an axis or a card whatever their size.
 */
export function compact(x: number, opts: { decimals?: number; from?: number } = {}): string {
  return formatCompact(x, { ...opts, locale: LOCALE });
}

/** A signed difference ("+0,2", "−1.5"); see `formatSigned`. */
export function signed(delta: number, decimals?: number): string {
  return formatSigned(delta, { decimals, locale: LOCALE });
}

/** A calendar day `YYYY-MM-DD` in `style` ("20 April", "Mon"...); see `formatDay`. */
export function day(date: string, style: DayStyle): string {
  return formatDay(date, style, LOCALE);
}

/** The day the person's weeks start on (0 Sunday … 6 Saturday), from their locale; see `firstDayOfWeek`. */
export function weekStart(): number {
  return firstDayOfWeek(LOCALE);
}

/** Short names of the seven weekdays from `first` on, in the person's language ("Mon", "So"). */
export function weekdayHeads(first: number): string[] {
  return weekdayNames(first, 'weekday-short', LOCALE);
}

/** A UTC-midnight instant in seconds (a chart's x value) as a day in `style`. */
export function daySeconds(seconds: number, style: DayStyle): string {
  return formatDaySeconds(seconds, style, LOCALE);
}

/** What a card shows where a number belongs but the row holds something else ("heavy"). */
export const NOT_A_NUMBER = 'not a number';

/** From this magnitude on, a card writes a value compactly (1E308 stays one short word). */
const CARD_COMPACT_FROM = 1e9;

/** A card's number: as `num`, compact from a billion so that no value overflows its card. */
function cardNumber(x: number, decimals?: number): string {
  return formatCompact(x, { decimals, locale: LOCALE, from: CARD_COMPACT_FROM });
}

/**
 * `renderTemplate` with numbers written in the person's locale (compact from a billion), and
 * `round(N)` of a value that is not a number written as NOT_A_NUMBER, never as the text itself.
 */
export function fillTemplate(
  template: string,
  row: Record<string, unknown> | undefined,
  opts: Omit<RenderOptions, 'formatNumber' | 'notANumber'> = {},
): string {
  return renderTemplate(template, row, { ...opts, formatNumber: cardNumber, notANumber: NOT_A_NUMBER });
}
