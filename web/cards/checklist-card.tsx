/**
 * `checklist-card`: the day's ticks for a schedule card (docs/MANIFEST-SCHEMA.md "Built-in
 * renderers": daily ticks with a fixed write shape). Lists the items due on the shown date
 * (src/common/schedule.ts: types, legacy keys, cycles), grouped by `data.groups`, each with one
 * tick per dose; a tick appends `{scheduledDate, takenAt}` to the item's `doses` through the rows
 * API, and a second tap undoes it. Items not due that day are named below, quietly. With
 * `showSparkline`, a 30-day strip of the share of doses taken.
 */
import { useMemo } from 'preact/hooks';
import { itemDoseText } from '../../src/common/item-dose.js';
import {
  dailyShares,
  doseSlots,
  groupItems,
  isItemDue,
  itemName,
  scheduleItems,
  takenCount,
} from '../../src/common/schedule.js';
import { AdherenceStrip, DoseTicks } from '../forms/dose-ticks.js';
import { itemKey, useDoseWriter } from '../forms/use-dose-writer.js';
import { useCardData } from '../lib/card-data.js';
import { dayMonth } from '../lib/dates.js';
import type { RendererProps } from './registry.js';
import '../styles/cards/checklist-card.css';

export function ChecklistCard({ card, date }: RendererProps) {
  const { data, etag, loading, error } = useCardData(card.id);
  const writer = useDoseWriter(card.id, card.meta, data, etag, date);
  const refs = useMemo(() => scheduleItems(data), [data]);
  if (data === undefined) {
    return (
      <p class="cl-note">
        {loading ? 'Loading…' : `Could not read this checklist${error ? `: ${error.message}` : '.'}`}
      </p>
    );
  }
  if (refs.length === 0) {
    const odd = data !== null && !(typeof data === 'object' && !Array.isArray(data)) && !Array.isArray(data);
    return <p class="cl-note">{odd ? "This card's data has no items to tick." : 'No items yet.'}</p>;
  }
  const due = refs.filter((r) => isItemDue(r.item, date));
  const notDue = refs.filter((r) => !isItemDue(r.item, date));
  const totalDue = due.reduce((n, r) => n + doseSlots(r.item, date).length, 0);
  const totalTaken = due.reduce(
    (n, r) => n + Math.min(doseSlots(r.item, date).length, takenCount(r.item, date)),
    0,
  );
  const disabled = !writer.canWrite || writer.refusal !== null;

  return (
    <div class="cl">
      {due.length === 0 ? (
        <p class="cl-empty">Nothing due on {dayMonth(date)}.</p>
      ) : (
        <>
          <div class="cl-progress">
            <span class="cl-count">
              {totalTaken} of {totalDue} done
            </span>
            <span class="cl-bar" aria-hidden="true">
              <span
                class="cl-bar-fill"
                style={{ width: `${totalDue ? Math.round((totalTaken / totalDue) * 100) : 0}%` }}
              />
            </span>
          </div>
          {groupItems(data, due).map((g) => (
            <section key={g.id ?? 'rest'} class="cl-group" aria-label={g.label ?? undefined}>
              {g.label && <h3 class="cl-group-title">{g.label}</h3>}
              <ul class="cl-items">
                {g.items.map((ref) => {
                  const name = itemName(ref.item, ref.index);
                  const dose = itemDoseText(ref.item) ?? '';
                  const slots = doseSlots(ref.item, date);
                  const taken = Math.min(slots.length, takenCount(ref.item, date));
                  return (
                    <li
                      key={itemKey(ref)}
                      class={`cl-item${taken >= slots.length ? ' cl-item-done' : ''}`}
                      data-item={name}
                    >
                      <div class="cl-text">
                        <span class="cl-name">{name}</span>
                        {dose && <span class="cl-dose">{dose}</span>}
                      </div>
                      <DoseTicks
                        name={name}
                        slots={slots}
                        taken={taken}
                        disabled={disabled}
                        busy={writer.busy === itemKey(ref)}
                        onTick={() => void writer.tick(ref)}
                        onUntick={() => void writer.untick(ref)}
                      />
                    </li>
                  );
                })}
              </ul>
            </section>
          ))}
        </>
      )}
      {notDue.length > 0 && due.length > 0 && (
        <p class="cl-not-due">Not due: {notDue.map((r) => itemName(r.item, r.index)).join(', ')}</p>
      )}
      {writer.canWrite && writer.refusal && due.length > 0 && <p class="cl-refusal">{writer.refusal}</p>}
      {writer.problem && (
        <p class="form-error" role="alert">
          {writer.problem}
        </p>
      )}
      {card.viewConfig.showSparkline === true && <AdherenceStrip days={dailyShares(data, date, 30)} />}
    </div>
  );
}
