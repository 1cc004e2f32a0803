/**
 * `schedule-card`: a medication, supplement or peptide schedule (docs/MANIFEST-SCHEMA.md "Schedule
 * block", "View config": `checkOffForm`, `colorMap`). Every item of `data.items[]` /
 * `data.current[]`, grouped by `data.groups`, with: its dose and schedule in words, a dot grid of
 * the seven days up to the shown one (taken, partly taken, missed, due, not due), and, when due on
 * the shown day, one tick per dose. A tick appends `{scheduledDate, takenAt}` to the item's
 * `doses` (rows API); an item not due can still be logged, marked `offSchedule: true`.
 *
 * `checkOffForm: {currentDoseFields: [inputs or input keys], previousDoseFields: [keys],
 * previousDosePrompt?, currentDosePrompt?}` asks for details with each check-off (an injection
 * site, a dose taken), stored in the dose, and shows the listed fields of the item's previous dose
 * as a reminder, under `previousDosePrompt` when given. An item's `action_label` ("Lift") names the
 * button that logs a dose off schedule. `colorMap` colours items by item name or group id
 * (`{"Vitamin D": "#f5b700"}`); an item's own `colour`/`color` also counts.
 */
import { useMemo, useState } from 'preact/hooks';
import { addDays, daysBetween } from '../../src/common/dates.js';
import { valueText } from '../../src/common/display-template.js';
import { formInputs, namedInputs } from '../../src/common/inputs.js';
import { itemDoseText } from '../../src/common/item-dose.js';
import {
  dailyShares,
  dayText as dayFiled,
  describeSchedule,
  doseSlots,
  dosesDue,
  dosesOf,
  groupItems,
  isItemDue,
  isTaken,
  itemName,
  type ScheduleItemRef,
  scheduleItems,
  takenCount,
} from '../../src/common/schedule.js';
import { AdherenceStrip, DoseTicks } from '../forms/dose-ticks.js';
import { EntryForm } from '../forms/entry-form.js';
import { initialValues } from '../forms/form-values.js';
import { itemKey, useDoseWriter } from '../forms/use-dose-writer.js';
import { useCardData } from '../lib/card-data.js';
import { dayMonth, today } from '../lib/dates.js';
import { day as dayText } from '../lib/format.js';
import type { RendererProps } from './registry.js';
import '../styles/cards/schedule-card.css';

const GRID_DAYS = 7;

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);
const colourText = (v: unknown): string | undefined =>
  typeof v === 'string' && /^(#[0-9a-f]{3,8}|[a-z]+|(rgb|hsl)a?\([\d\s.,%]+\))$/i.test(v.trim())
    ? v.trim()
    : undefined;

/** How a day of the dot grid reads. */
type DayState = 'taken' | 'partial' | 'missed' | 'due' | 'off';

function dayState(item: Record<string, unknown>, date: string, now: string): DayState {
  const due = dosesDue(item, date);
  const taken = takenCount(item, date);
  if (due === 0) return taken > 0 ? 'taken' : 'off';
  if (taken >= due) return 'taken';
  if (taken > 0) return 'partial';
  return date < now ? 'missed' : 'due';
}

const STATE_TEXT: Record<DayState, string> = {
  taken: 'taken',
  partial: 'partly taken',
  missed: 'missed',
  due: 'due',
  off: 'not due',
};

function DotGrid({ item, date }: { item: Record<string, unknown>; date: string }) {
  const now = today();
  const days: string[] = [];
  for (let i = GRID_DAYS - 1; i >= 0; i--) days.push(addDays(date, -i));
  return (
    <ol class="sc-grid" aria-label="The last seven days">
      {days.map((d) => {
        const st = dayState(item, d, now);
        const weekday = dayText(d, 'weekday-narrow');
        return (
          <li
            key={d}
            class={`sc-day sc-${st}${d === date ? ' sc-shown' : ''}`}
            title={`${dayMonth(d)}: ${STATE_TEXT[st]}`}
          >
            <span class="sc-dot" aria-hidden="true" />
            <span class="sc-weekday" aria-hidden="true">
              {weekday}
            </span>
            <span class="visually-hidden">
              {dayMonth(d)}: {STATE_TEXT[st]}
            </span>
          </li>
        );
      })}
    </ol>
  );
}

/** A text setting, trimmed; undefined when it is not a non-blank string. */
const textOf = (v: unknown): string | undefined =>
  typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;

/** The item's latest taken dose on or before `date`, or undefined. */
function previousDose(item: Record<string, unknown>, date: string): Record<string, unknown> | undefined {
  const taken = dosesOf(item).filter(
    (d) => isTaken(d) && (dayFiled(d.scheduledDate) ?? dayFiled(d.takenAt) ?? '') <= date,
  );
  return taken[taken.length - 1];
}

export function ScheduleCard({ card, date }: RendererProps) {
  const { data, etag, loading, error } = useCardData(card.id);
  const writer = useDoseWriter(card.id, card.meta, data, etag, date);
  const [asking, setAsking] = useState<{ ref: ScheduleItemRef; offSchedule: boolean } | null>(null);
  const refs = useMemo(() => scheduleItems(data), [data]);
  const vc = card.viewConfig;
  const display = isObject(vc.display) ? vc.display : {};
  const colorMap = isObject(vc.colorMap) ? vc.colorMap : isObject(display.colorMap) ? display.colorMap : {};
  const form = isObject(vc.checkOffForm) ? vc.checkOffForm : null;
  const doseInputs = useMemo(
    () => (form ? namedInputs(form.currentDoseFields, card.meta) : []),
    [form, card.meta],
  );
  // the labels of the previous dose's fields: the check-off inputs', else the card's form's
  const labelled = useMemo(() => [...doseInputs, ...formInputs(card.meta)], [doseInputs, card.meta]);
  const previousFields =
    form && Array.isArray(form.previousDoseFields)
      ? form.previousDoseFields.filter((k): k is string => typeof k === 'string')
      : [];
  const previousPrompt = textOf(form?.previousDosePrompt);
  const currentPrompt = textOf(form?.currentDosePrompt);

  if (data === undefined) {
    return (
      <p class="sc-note">
        {loading ? 'Loading…' : `Could not read this schedule${error ? `: ${error.message}` : '.'}`}
      </p>
    );
  }
  if (refs.length === 0) return <p class="sc-note">No scheduled items yet.</p>;

  const disabled = !writer.canWrite || writer.refusal !== null;
  const dueRefs = refs.filter((r) => isItemDue(r.item, date));
  const totalDue = dueRefs.reduce((n, r) => n + doseSlots(r.item, date).length, 0);
  const totalTaken = dueRefs.reduce(
    (n, r) => n + Math.min(doseSlots(r.item, date).length, takenCount(r.item, date)),
    0,
  );

  const tick = (ref: ScheduleItemRef, offSchedule: boolean) => {
    if (doseInputs.length > 0) setAsking({ ref, offSchedule });
    else void writer.tick(ref, offSchedule ? { offSchedule } : {});
  };

  return (
    <div class="sc">
      <p class="sc-summary">
        {totalDue === 0 ? (
          `Nothing due on ${dayMonth(date)}.`
        ) : (
          <>
            <strong>
              {totalTaken} of {totalDue}
            </strong>{' '}
            {totalDue === 1 ? 'dose' : 'doses'} taken{' '}
            {daysBetween(date, today()) === 0 ? 'today' : `on ${dayMonth(date)}`}
          </>
        )}
      </p>
      {groupItems(data, refs).map((g) => (
        <section key={g.id ?? 'rest'} class="sc-group" aria-label={g.label ?? undefined}>
          {g.label && <h3 class="sc-group-title">{g.label}</h3>}
          <ul class="sc-items">
            {g.items.map((ref) => {
              const item = ref.item;
              const name = itemName(item, ref.index);
              const colour =
                colourText(colorMap[name]) ??
                (g.id ? colourText(colorMap[g.id]) : undefined) ??
                colourText(item.colour) ??
                colourText(item.color);
              const due = isItemDue(item, date);
              const slots = doseSlots(item, date);
              const taken = takenCount(item, date);
              const prev = previousFields.length > 0 ? previousDose(item, date) : undefined;
              const prevText = prev
                ? previousFields
                    .map((k) =>
                      prev[k] === undefined
                        ? ''
                        : `${labelled.find((i) => i.key === k)?.label ?? k}: ${valueText(prev[k])}`,
                    )
                    .filter((t) => t !== '')
                    .join(' · ')
                : '';
              const isAsking = asking && itemKey(asking.ref) === itemKey(ref);
              return (
                <li
                  key={itemKey(ref)}
                  class={`sc-item${due ? ' sc-item-due' : ''}`}
                  data-item={name}
                  style={colour ? { '--sc-colour': colour } : undefined}
                >
                  <div class="sc-head">
                    <span class="sc-swatch" aria-hidden="true" />
                    <div class="sc-text">
                      <span class="sc-name">{name}</span>
                      <span class="sc-sub">
                        {itemDoseText(item) ? `${itemDoseText(item)} · ` : ''}
                        {describeSchedule(item)}
                      </span>
                    </div>
                  </div>
                  <DotGrid item={item} date={date} />
                  {prevText && (
                    <p class="sc-prev">
                      {previousPrompt ?? 'Last dose:'} {prevText}
                    </p>
                  )}
                  {writer.canWrite &&
                    !isAsking &&
                    (due ? (
                      <DoseTicks
                        name={name}
                        slots={slots}
                        taken={Math.min(taken, slots.length)}
                        disabled={disabled}
                        busy={writer.busy === itemKey(ref)}
                        returnKey={itemKey(ref)}
                        onTick={() => tick(ref, false)}
                        onUntick={() => void writer.untick(ref)}
                      />
                    ) : (
                      <div class="sc-notdue">
                        <span class="sc-off-text">
                          {taken > 0 ? `Logged ${taken}× (not due)` : 'Not due'}
                        </span>
                        <button
                          type="button"
                          class="button button-quiet"
                          disabled={disabled}
                          aria-disabled={writer.busy === itemKey(ref) ? 'true' : undefined}
                          data-return-focus={`dose-${itemKey(ref)}`}
                          onClick={() => {
                            // saving: the button keeps the focus (a disabled one would drop it)
                            if (writer.busy !== itemKey(ref)) tick(ref, true);
                          }}
                        >
                          {textOf(item.action_label) ?? textOf(item.actionLabel) ?? 'Log a dose'}
                        </button>
                      </div>
                    ))}
                  {!writer.canWrite && !due && <p class="sc-off-text">Not due</p>}
                  {isAsking && asking && (
                    <EntryForm
                      inputs={doseInputs}
                      initial={initialValues(doseInputs)}
                      title={`${name}: ${currentPrompt ?? 'dose'} on ${dayMonth(date)}`}
                      saveLabel="Taken"
                      onSave={async (fields) => {
                        const ok = await writer.tick(ref, {
                          fields,
                          ...(asking.offSchedule ? { offSchedule: true } : {}),
                        });
                        // a failure is shown under the card (role=alert); the form stays open to retry
                        if (ok) setAsking(null);
                      }}
                      onCancel={() => setAsking(null)}
                    />
                  )}
                </li>
              );
            })}
          </ul>
        </section>
      ))}
      {writer.canWrite && writer.refusal && <p class="sc-note">{writer.refusal}</p>}
      {writer.problem && (
        <p class="form-error" role="alert">
          {writer.problem}
        </p>
      )}
      {vc.showSparkline === true && <AdherenceStrip days={dailyShares(data, date, 30)} />}
    </div>
  );
}
