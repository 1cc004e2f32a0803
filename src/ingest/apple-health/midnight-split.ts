/**
 * An Apple Health record of a summed quantity that crosses local midnight (steps from 23:50 to
 * 00:10, a walk's distance, energy burned, a mindful session's minutes) is shared between its two days in proportion to the
 * time it spent in each, as the Health app counts it: 100 steps from 23:50 to 00:10 are 50 on
 * each day. Before, the whole record counted on the day it started.
 *
 * The part before midnight keeps the record's own stamp and the key the whole record had
 * (`wholeQty`: the extraction keys it on the whole value, format/samples.ts), and restates the
 * stored row: an export imported before the split, imported again, has that row take the part's
 * value instead of being stored beside it. The part after midnight is stamped at that midnight,
 * says it is a part of its day (`partOfDay`) and is keyed with the record's stamp (`splitOf`), so
 * a record that really starts at midnight is never taken for it. Importing the same export again
 * gives the same two samples.
 */
import { addDays } from '../../common/dates.js';
import { zoneOffsetAt } from '../hae/format/instant-zone.js';
import { parseHaeTimestamp } from '../hae/format/timestamps.js';
import type { MappedPoint } from './records.js';

/**
 * What follows the time of a stamp as the export writes it: its offset (`+0200`), or the zone it
 * is read in (`+0200 [Asia/Tokyo]`, records.ts inRecordZone), whose midnight is that zone's.
 */
const OFFSET = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} ([+-]\d{4})$/;
const ZONE = /\s(\[[^[\]]+\])$/;

/**
 * The offset of local midnight for a record whose stamps carry offsets: its start's. A record
 * over a daylight-saving change (23:00 +0100 to 04:00 +0200 on the night clocks go forward at
 * 02:00) ends under the new offset, but midnight came before the change, under the old one;
 * where clocks go forward at midnight itself, the day begins at the instant of 00:00 under the
 * old offset as well. Where they go back at midnight itself (Chile), the day begins an hour
 * later, under the new offset; the two offsets alone cannot tell that apart from a change at
 * 02:00, so `homeZone` (the person's zone, whose clock the export was written on) decides: the
 * end's offset when that zone's clock reads 00:00 of the end's date under it. Undefined when
 * either stamp has another form.
 */
function midnightOffset(startDate: string, endDate: string, homeZone?: string): string | undefined {
  const end = OFFSET.exec(endDate)?.[1];
  const start = OFFSET.exec(startDate)?.[1];
  if (end === undefined || start === undefined) return undefined;
  if (start === end || homeZone === undefined) return start;
  const atEnd = parseHaeTimestamp(`${endDate.slice(0, 10)} 00:00:00 ${end}`);
  if (!atEnd || atEnd.offsetMinutes === null) return start;
  return zoneOffsetAt(atEnd.epochMs, homeZone) === atEnd.offsetMinutes ? end : start;
}

/**
 * `m`, the point of a record from `startDate` to `endDate` (as written in the export, the zone's
 * clock already applied), shared between its days when it ends on the day after its start
 * (module comment): the part before midnight (m's point, its quantity scaled) and the part
 * after. `homeZone`: the person's zone, for a record over a change of the clocks (midnightOffset).
 * Undefined when the record stays within its day, spans more than two days, has stamps
 * of another form or no numeric quantity: it is read whole, as before.
 */
export function splitAtMidnight(
  m: MappedPoint,
  startDate: string | undefined,
  endDate: string | undefined,
  homeZone?: string,
): [MappedPoint, MappedPoint] | undefined {
  if (startDate === undefined || endDate === undefined) return undefined;
  const zone = ZONE.exec(endDate)?.[1];
  // the cheap test first: nearly every record ends on the date it starts
  if (zone === undefined && !startDate.endsWith(']') && startDate.slice(0, 10) === endDate.slice(0, 10))
    return undefined;
  const offset = zone ?? midnightOffset(startDate, endDate, homeZone);
  const qty = typeof m.point.qty === 'string' ? Number(m.point.qty) : m.point.qty;
  if (offset === undefined || typeof qty !== 'number' || !Number.isFinite(qty)) return undefined;
  const start = parseHaeTimestamp(startDate);
  const end = parseHaeTimestamp(endDate);
  if (!start || !end || end.date !== addDays(start.date, 1) || end.time === '00:00:00') return undefined;
  const midnightStamp = `${end.date} 00:00:00 ${offset}`;
  const midnight = parseHaeTimestamp(midnightStamp);
  if (!midnight || midnight.epochMs <= start.epochMs || midnight.epochMs >= end.epochMs) return undefined;
  const before = (midnight.epochMs - start.epochMs) / (end.epochMs - start.epochMs);
  const first: MappedPoint = { ...m, point: { ...m.point, qty: qty * before, wholeQty: qty } };
  const second: MappedPoint = {
    ...m,
    point: { ...m.point, date: midnightStamp, qty: qty * (1 - before), partOfDay: true, splitOf: startDate },
  };
  return [first, second];
}
