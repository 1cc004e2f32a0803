/**
 * A stamp ending in a time zone's abbreviation instead of an offset, as `date` and Python's
 * `%Z`, a Shortcut's Format Date with a custom `zzz`, and mail headers (RFC 2822 names the US
 * zones) write it: `2026-05-01 08:00:00 PDT`, `Fri, 1 May 2026 08:00:00 EDT`. An abbreviation
 * that names one offset wherever it is used is read as that offset: the US mainland's, Alaska's
 * and Hawaii's (`EST` `EDT` `MST` `MDT` `PST` `PDT` `AKST` `AKDT` `HST`) and Europe's (`WET`
 * `WEST` `BST` `CET` `CEST` `EET` `EEST`), as the time zone database and the phone's locale
 * data name them; `UTC`, `GMT` and `Z` are read by timestamps.ts itself. One
 * that names several is never guessed (`IST` is India's, Israel's and Ireland's; `CST` the US
 * Centre's, China's and Cuba's): the point is skipped, its warning naming the zones and asking
 * for the offset.
 */

/** Abbreviations of one offset each → that offset. */
const ONE_OFFSET: Readonly<Record<string, string>> = {
  EST: '-0500',
  EDT: '-0400',
  MST: '-0700',
  MDT: '-0600',
  PST: '-0800',
  PDT: '-0700',
  AKST: '-0900',
  AKDT: '-0800',
  HST: '-1000',
  WET: '+0000',
  WEST: '+0100',
  // the time zone database and the phone's (CLDR) use it for London only: Bangladesh's is `+06`
  BST: '+0100',
  CET: '+0100',
  CEST: '+0200',
  EET: '+0200',
  EEST: '+0300',
};

/** Abbreviations in use for more than one offset → the zones they name. */
const SEVERAL_OFFSETS: Readonly<Record<string, string>> = {
  IST: 'India +0530, Israel +0200, Ireland +0100',
  CST: 'US Central -0600, China +0800, Cuba -0500',
  CDT: 'US Central -0500, Cuba -0400',
  AST: 'Atlantic -0400, Arabia +0300',
  ADT: 'Atlantic -0300, Arabia +0400',
  SST: 'Samoa -1100, Singapore +0800',
};

/** A stamp (group 1: up to a digit or `AM`/`PM`) ending in three or four letters (group 2) after a space. */
const ENDS_IN_LETTERS = /^(.*(?:[\d.]|[AaPp]\.?[Mm]\.?))[\s\u00a0\u202f]+([A-Za-z]{3,4})$/;

/**
 * `text` with its trailing abbreviation of one offset (module comment) written as that offset
 * (`… 08:00:00 PDT` → `… 08:00:00 -0700`), or undefined when it ends in none.
 */
export function withAbbreviationOffset(text: string): string | undefined {
  const m = ENDS_IN_LETTERS.exec(text);
  const offset = m ? ONE_OFFSET[m[2].toUpperCase()] : undefined;
  return offset === undefined ? undefined : `${m?.[1]} ${offset}`;
}

/**
 * What to say of a stamp ending in an abbreviation used for several offsets (`IST`): the zones
 * it names and that the offset should be sent instead; undefined for any other stamp.
 */
export function abbreviationProblem(text: string): string | undefined {
  const m = ENDS_IN_LETTERS.exec(text);
  const abbreviation = m?.[2].toUpperCase();
  const zones = abbreviation === undefined ? undefined : SEVERAL_OFFSETS[abbreviation];
  return zones === undefined
    ? undefined
    : `the zone abbreviation ${abbreviation} names several zones (${zones}); send the offset (+HHMM) instead`;
}
