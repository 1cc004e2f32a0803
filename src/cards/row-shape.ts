/**
 * Whether a card keeps a list of rows, and the JSON types its writes must then have. A card that
 * keeps rows (its form has inputs, its renderer draws dated rows, or it already holds rows) reads
 * its data as an array of objects: an object, a string, a number or null written in place of that
 * array, or a non-object row, would be stored and then show nothing (or break the card's
 * renderer). Such writes are refused with 400 naming the field, before anything is written.
 */
import { writePolicyOf } from '../common/write-policy.js';
import { badRequest } from '../errors.js';
import type { Card } from './card-registry.js';

/** A JSON value's type in words: "an object", "a string", "null", … */
export function jsonTypeWords(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'object') return 'an object';
  return typeof v === 'number' ? 'a number' : typeof v === 'boolean' ? 'true or false' : `a ${typeof v}`;
}

const isRow = (v: unknown) => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * True when the card keeps a list of rows: its form has inputs, it is a dated card, or its stored
 * data is a non-empty array (`storedRows`: the stored row count when the data is an array, else 0).
 */
export function keepsRows(card: Pick<Card, 'manifest'>, storedRows: number): boolean {
  const policy = writePolicyOf(card.manifest.meta);
  return policy.inputs.length > 0 || policy.dated || storedRows > 0;
}

/**
 * For a card that keeps rows: `data` (already normalised, so a date-keyed object is rows) must be
 * an array whose elements are objects.
 * @throws 400 BAD_REQUEST naming `data` or the first bad `data[i]`.
 */
export function assertRowsData(card: Pick<Card, 'id' | 'manifest'>, storedRows: number, data: unknown): void {
  if (!keepsRows(card, storedRows)) return;
  if (!Array.isArray(data)) {
    throw badRequest(
      `card "${card.id}" keeps a list of rows: data must be an array, not ${jsonTypeWords(data)}`,
      [{ path: 'data', message: `must be an array of rows, not ${jsonTypeWords(data)}` }],
    );
  }
  const bad = data.findIndex((row) => !isRow(row));
  if (bad >= 0) {
    throw badRequest(
      `card "${card.id}" keeps a list of rows: each row must be an object, data[${bad}] is ${jsonTypeWords(data[bad])}`,
      [{ path: `data[${bad}]`, message: `must be an object (one row), not ${jsonTypeWords(data[bad])}` }],
    );
  }
}

/**
 * A row appended at the top of a card that keeps rows must be an object.
 * @throws 400 BAD_REQUEST naming `value`.
 */
export function assertRowValue(
  card: Pick<Card, 'id' | 'manifest'>,
  storedRows: number,
  topLevel: boolean,
  value: unknown,
): void {
  if (!topLevel || isRow(value) || !keepsRows(card, storedRows)) return;
  throw badRequest(`card "${card.id}" keeps a list of rows: value must be an object (one row)`, [
    { path: 'value', message: `must be an object (one row), not ${jsonTypeWords(value)}` },
  ]);
}
