/**
 * `generic-card` (and the older `metric-card`): one headline per day from `display.template`
 * (docs/MANIFEST-SCHEMA.md "display", "Display-template mini-language"), a secondary line, a unit,
 * a threshold colour bar and label, a trend arrow with the signed change, an optional sparkline,
 * and the card's entry form (add, edit, delete the shown day's entries, per `maxReadingsPerDay`).
 *
 * Which row is shown: the last entry of the shown day (`dateContext: "viewedDate"`, the default);
 * with `fallbackToLatest`, the latest earlier row "from N days ago" when the day has none; with
 * `dateContext: "latest"`, the latest row up to the shown day. Older manifests: `display.format`
 * stands for `template`, `display.primary: "latest.x"` names the headline field, and a secondary
 * written as a bare `latest.x` path is the older metric-card's second value, shown unless the
 * headline already shows it.
 *
 * Honest numbers: a card that adds up its day (a running total, running-total.ts) shows the day's
 * total, "so far" while the day is not over, compared only with the same time of the day before;
 * a day with several readings lists them all, not only the last; the arrow is coloured only when
 * the card says which direction is good; a sparkline breaks where the card was not measured for
 * longer than its rhythm (src/common/gaps.ts); numbers are written in the person's locale.
 */
import { useMemo, useState } from 'preact/hooks';
import { dateRefusal } from '../../src/common/date-allowance.js';
import { addDays } from '../../src/common/dates.js';
import { isRunningTotal, minuteOfDay } from '../../src/common/day-total.js';
import { type EmojiMap, getValue, templateFields } from '../../src/common/display-template.js';
import { expectDaysOf, gapLimit } from '../../src/common/gaps.js';
import { formInputs, type InputDescriptor, requireAnyOf } from '../../src/common/inputs.js';
import { sparklinePath } from '../../src/common/sparkline-path.js';
import { evaluateThresholds, primaryFieldOf } from '../../src/common/thresholds.js';
import { goodDirectionOf, type NumericPoint, TREND_ARROWS, trendTone } from '../../src/common/trend.js';
import { writePolicyOf } from '../../src/common/write-policy.js';
import { useAnnouncer } from '../components/announcer.js';
import { addDraftKey, hasDraft } from '../forms/entry-draft.js';
import { EntryForm } from '../forms/entry-form.js';
import { initialValues, keptFields } from '../forms/form-values.js';
import { needWholeData, useRecentCardData } from '../lib/card-data.js';
import { dayMonth, today } from '../lib/dates.js';
import { addEntry, deleteEntry, replaceEntry, saveAttempts } from '../lib/entries.js';
import { fillTemplate, NOT_A_NUMBER, signed } from '../lib/format.js';
import { type EditSnapshot, openEdit, reopenEdit } from './edit-snapshot.js';
import {
  cardRows,
  entriesOn,
  latestBefore,
  pickRow,
  sparklinePoints,
  tailFallsShort,
  trendOn,
} from './generic-card-index.js';
import type { RendererProps } from './registry.js';
import { dayTotalRow, settledRules, sumPerDay, totalTrend } from './running-total.js';
import '../styles/cards/generic-card.css';

/** What the card shows when the day has no entry and the manifest names nothing else. */
export const DEFAULT_EMPTY_HEADLINE = 'No entry yet';

/** How many points a sparkline draws at most. */
const SPARKLINE_POINTS = 30;

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/** The rows of a card whose data is null (never stored any). */
const NO_ROWS: readonly unknown[] = [];

const NO_INPUTS: InputDescriptor[] = [];
const inputsByMeta = new WeakMap<object, InputDescriptor[]>();

/** `formInputs(meta)`, read once per manifest meta object. */
function inputsOf(meta: Record<string, unknown>): InputDescriptor[] {
  let inputs = inputsByMeta.get(meta);
  if (!inputs) {
    inputs = formInputs(meta);
    inputsByMeta.set(meta, inputs);
  }
  return inputs;
}

/** True when the card takes entries from the web app and has inputs to fill in. */
const hasInputsOf = (canWrite: boolean, meta: Record<string, unknown>) =>
  canWrite && inputsOf(meta).length > 0;

const text = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v : undefined);

/** The headline template: `template`, else the older `format`, else `{field}` of `primary`. */
function headlineTemplate(display: Record<string, unknown>): string | undefined {
  const t = text(display.template) ?? text(display.format);
  if (t) return t;
  const primary = text(display.primary);
  return primary ? `{${primary.startsWith('latest.') ? primary.slice(7) : primary}}` : undefined;
}

/** A field path without the older metric-card's `latest.` prefix. */
const ownPath = (p: string): string => (p.startsWith('latest.') ? p.slice(7) : p);

/**
 * The secondary template. The older metric-card's bare `latest.x` path shows `{x}`, unless the
 * headline already shows that field (its `format` "{systolic}/{diastolic}" holds the second
 * value), so a second value the headline leaves out (a pulse, a context) is not lost.
 */
function secondaryTemplate(
  display: Record<string, unknown>,
  headline: string | undefined,
): string | undefined {
  const s = text(display.secondary);
  if (!s) return undefined;
  if (!s.includes('{') && /^latest\.[\w.-]+$/.test(s.trim())) {
    const field = ownPath(s.trim());
    return templateFields(headline).some((f) => ownPath(f) === field) ? undefined : `{${field}}`;
  }
  return s;
}

function Sparkline({ points, limit, colour }: { points: NumericPoint[]; limit: number; colour?: string }) {
  const w = 120;
  const h = 32;
  const { d, last } = sparklinePath(points, limit, w, h);
  return (
    <svg
      class="gc-sparkline"
      viewBox={`0 0 ${w} ${h}`}
      width={w}
      height={h}
      role="img"
      aria-label={`Last ${points.length} values`}
    >
      <path
        d={d}
        fill="none"
        stroke={colour || 'currentColor'}
        stroke-width="2"
        stroke-linejoin="round"
        stroke-linecap="round"
      />
      <circle cx={last[0]} cy={last[1]} r="2.5" fill={colour || 'currentColor'} />
    </svg>
  );
}

/** Minutes after midnight now, in the browser's (the person's) zone. */
function minuteNow(): number {
  const d = new Date();
  return d.getHours() * 60 + d.getMinutes();
}

/** "HH:MM" of an entry (its `time`, or the time of a timestamp date), or undefined. */
function entryTime(row: Record<string, unknown>, dateField: string): string | undefined {
  const m = minuteOfDay(row, dateField);
  return m === null
    ? undefined
    : `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
}

type Editing = { mode: 'add' } | EditSnapshot | null;

export function GenericCard({ card, date }: RendererProps) {
  const { data, etag, loading, error, from = 0 } = useRecentCardData(card.id);
  // a new entry whose Save found the session ended opens again, as typed, once signed in
  const [editing, setEditing] = useState<Editing>(() =>
    hasDraft(addDraftKey(card.id, date)) ? { mode: 'add' } : null,
  );
  // a save tried again after an error is the same write (same key): stored once
  const addAttempts = useMemo(saveAttempts, []);
  // a save or deletion said to a screen reader: the form just goes, the new value is not read out
  const said = useAnnouncer();
  const meta = card.meta;
  const vc = card.viewConfig;
  const display = isObject(vc.display) ? vc.display : {};
  // the server's reading of `meta.writeable` (src/common/write-policy.ts)
  const policy = useMemo(() => writePolicyOf(meta), [meta]);
  const canWrite = policy.fromWebapp;
  const maxPerDay = policy.maxReadingsPerDay;
  const dateField = text(vc.dateField) ?? 'date';

  // built once per data block and shared by every render of it (generic-card-index.ts)
  const rows = cardRows(Array.isArray(data) ? data : NO_ROWS, dateField, from);

  if (data === undefined) {
    return loading ? (
      <p class="gc-note" aria-busy="true">
        Loading…
      </p>
    ) : (
      <p class="gc-note">Could not read this card's entries{error ? `: ${error.message}` : '.'}</p>
    );
  }
  if (data !== null && !Array.isArray(data)) {
    return <p class="gc-note">This card's data is not a list of entries, so it has no headline to show.</p>;
  }

  const context = vc.dateContext === 'latest' ? 'latest' : 'viewedDate';
  const { shown, daysAgo } = pickRow(rows, date, context, vc.fallbackToLatest === true);
  // a running total (steps, water) shows the day's entries added up; "so far" while the day is not over
  const running = isRunningTotal(vc, meta);
  const soFar = running && shown?.day !== undefined && shown.day !== null && shown.day >= today();
  const row = running && shown?.day ? (dayTotalRow(rows, shown.day, dateField) ?? shown.row) : shown?.row;
  const emojiMap = isObject(display.emojiMap) ? (display.emojiMap as EmojiMap) : undefined;
  const template = headlineTemplate(display);
  const headline = row ? (template ? fillTemplate(template, row, { emojiMap }).trim() : '') : '';
  const secondaryT = secondaryTemplate(display, template);
  const secondary = row && secondaryT ? fillTemplate(secondaryT, row, { emojiMap }).trim() : '';
  const subtitleT = text(display.subtitle);
  const subtitle = row && subtitleT ? fillTemplate(subtitleT, row, { emojiMap }).trim() : '';
  const unit = text(display.unit);
  // a row written over the API with text where the card's number goes: no unit after it
  const oddHeadline = headline.includes(NOT_A_NUMBER);
  // before the day is over, only a verdict the total cannot lose again ("Goal reached", not "Quiet day")
  const band = row
    ? evaluateThresholds(soFar ? settledRules(display.thresholds) : display.thresholds, row, {
        primaryField: primaryFieldOf(display),
      })
    : null;

  const arrowCfg = isObject(display.trendArrow) ? display.trendArrow : null;
  const arrowField = arrowCfg ? text(arrowCfg.field) : undefined;
  const trend =
    row && arrowField && shown?.day
      ? running
        ? totalTrend(rows, arrowField, shown.day, { running: soFar, minuteNow: minuteNow(), dateField })
        : trendOn(rows, arrowField, shown.day)
      : null;
  const tone = trend ? trendTone(trend.dir, goodDirectionOf(arrowCfg)) : 'neutral';
  const sameTime = trend !== null && 'sameTime' in trend && trend.sameTime;

  const spark =
    vc.showSparkline === true
      ? running
        ? // whole days only: today's total so far would read as a bad day at the line's end
          sumPerDay(
            sparklinePoints(rows, display, soFar ? addDays(date, -1) : date, SPARKLINE_POINTS * maxPerDay),
            SPARKLINE_POINTS,
          )
        : sparklinePoints(rows, display, date, SPARKLINE_POINTS)
      : [];
  const gapDays = gapLimit(
    spark.map((p) => p.date),
    expectDaysOf(meta),
  );

  // drawn from the card's latest rows (a batch read): when they do not reach back far enough for
  // this day, the whole block is read and the card waits for it
  const short = tailFallsShort(rows, date, {
    shown: { wanted: context === 'latest' || vc.fallbackToLatest === true, entry: shown },
    trend: {
      wanted:
        !running &&
        row !== undefined &&
        arrowField !== undefined &&
        typeof getValue(row, arrowField) === 'number',
      value: trend,
    },
    sparkline: { wanted: vc.showSparkline === true, points: spark.length, n: SPARKLINE_POINTS },
  });
  if (short) {
    needWholeData(card.id);
    return (
      <p class="gc-note" aria-busy="true">
        Loading…
      </p>
    );
  }

  const dayEntries = entriesOn(rows, date);
  const editable = hasInputsOf(canWrite, meta) && maxPerDay > 1;
  // every reading of the day shown, not only the last (blood pressure morning and evening); a
  // running total lists its parts only where they can be edited
  const readings = editable ? dayEntries : running || !shown?.day ? [] : entriesOn(rows, shown.day);
  const listed = editable ? readings.length > 0 : readings.length > 1;
  // the row as the form opened it, with the ETag of then (edit-snapshot.ts): never re-read from live data
  const opened = editing?.mode === 'edit' ? editing : null;
  const editRow = opened?.entry;
  const mode = editing?.mode === 'edit' && !editRow ? null : (editing?.mode ?? null);
  // the form's inputs, read only when a form is open (most cards on a page show none)
  const inputs = canWrite && mode !== null ? inputsOf(meta) : NO_INPUTS;
  const hasDateInput = inputs.some((i) => i.key === dateField);
  // a writable card whose inputs were all dropped (an unknown type) has nothing to fill in: no form
  const hasInputs = canWrite && inputsOf(meta).length > 0;

  const emptyHeadline = text(display.emptyHeadline) ?? DEFAULT_EMPTY_HEADLINE;
  const addLabel = maxPerDay > 1 && dayEntries.length > 0 ? 'Add another' : 'Add entry';
  // a day without rows the card does not take (the server's rule, src/common/date-allowance.ts): said up front
  const addRefusal = canWrite && dayEntries.length === 0 ? dateRefusal(policy, date, today()) : null;
  const full = maxPerDay > 1 && dayEntries.length >= maxPerDay;

  return (
    <div
      class={`gc${band ? ' gc-banded' : ''}`}
      data-tone={tone}
      style={band?.colour ? { '--gc-band': band.colour } : undefined}
    >
      <div class="gc-main">
        <div class="gc-headline-row">
          {row ? (
            <p class="gc-headline">
              <span class={oddHeadline ? 'gc-value gc-odd' : 'gc-value'}>{headline || '—'}</span>
              {unit && headline && !oddHeadline && <span class="gc-unit">{unit}</span>}
              {soFar && headline && <span class="gc-so-far">so far</span>}
            </p>
          ) : (
            <p class="gc-headline gc-empty">{emptyHeadline}</p>
          )}
          {trend && (
            <span
              role="img"
              class={`gc-trend gc-trend-${tone}`}
              data-tone={tone}
              title={
                sameTime
                  ? 'Compared with the same time yesterday'
                  : `Compared with ${dayMonth(trend.prevDate)}`
              }
              aria-label={`${trend.dir === 'flat' ? 'No change' : trend.dir === 'up' ? 'Up' : 'Down'} ${signed(trend.delta, trend.decimals)} ${sameTime ? 'on the same time yesterday' : `since ${dayMonth(trend.prevDate)}`}`}
            >
              <span aria-hidden="true">{TREND_ARROWS[trend.dir]}</span>
              <span aria-hidden="true">{signed(trend.delta, trend.decimals)}</span>
              {sameTime && (
                <span class="gc-trend-when" aria-hidden="true">
                  vs. this time yesterday
                </span>
              )}
            </span>
          )}
        </div>
        {secondary && (
          <p class="gc-secondary" title={secondary}>
            {secondary}
          </p>
        )}
        {subtitle && (
          <p class="gc-subtitle" title={subtitle}>
            {subtitle}
          </p>
        )}
        {(band?.label || (row && daysAgo > 0)) && (
          <p class="gc-meta">
            {band?.label && <span class="gc-pill">{band.label}</span>}
            {row && daysAgo > 0 && (
              <span class="gc-age">
                from {daysAgo} {daysAgo === 1 ? 'day' : 'days'} ago
              </span>
            )}
          </p>
        )}
        {spark.length >= 2 && <Sparkline points={spark} limit={gapDays} colour={band?.colour || undefined} />}
      </div>

      {listed && (
        <ul
          class="gc-entries"
          aria-label={readings.length > 1 ? `${readings.length} readings of this day` : 'Entries of this day'}
        >
          {readings.map((r, n) => (
            <li key={r.index} class="gc-entry">
              <span class="gc-entry-text">
                {(template ? fillTemplate(template, r.row, { emojiMap }).trim() : '') || `Entry ${n + 1}`}
                {unit && <span class="gc-unit">{unit}</span>}
                {entryTime(r.row, dateField) && (
                  <span class="gc-entry-time">{entryTime(r.row, dateField)}</span>
                )}
              </span>
              {editable && (
                <button
                  type="button"
                  class="button button-quiet gc-entry-edit"
                  aria-label={`Edit entry ${n + 1}`}
                  data-return-focus={`edit-${r.index}`}
                  onClick={() => setEditing(openEdit(rows, r.index, etag))}
                >
                  Edit
                </button>
              )}
            </li>
          ))}
        </ul>
      )}

      {said.line}

      {canWrite && mode === null && !hasInputs && (
        <p class="form-hint gc-no-inputs">This card takes no entries from the web app.</p>
      )}

      {canWrite && mode === null && hasInputs && (
        <div class="gc-actions">
          {maxPerDay === 1 && dayEntries.length > 0 ? (
            <button
              type="button"
              class="button"
              data-return-focus="main"
              onClick={() => setEditing(openEdit(rows, dayEntries[dayEntries.length - 1].index, etag))}
            >
              Edit entry
            </button>
          ) : (
            <>
              <button
                type="button"
                class="button"
                data-action="log"
                data-return-focus="main"
                disabled={addRefusal !== null}
                onClick={() => setEditing({ mode: 'add' })}
              >
                {addLabel}
              </button>
              {addRefusal && <p class="form-hint gc-refusal">{addRefusal}</p>}
            </>
          )}
        </div>
      )}

      {canWrite && mode === 'add' && (
        <EntryForm
          key={`add-${date}`}
          draftKey={addDraftKey(card.id, date)}
          inputs={inputs}
          requireAny={requireAnyOf(meta)}
          initial={{
            ...initialValues(inputs, {
              latest: latestBefore(rows, date)?.row,
              prefill: policy.prefillFromLatest,
              dateField,
            }),
            ...(hasDateInput ? { [dateField]: date } : {}),
          }}
          extra={hasDateInput ? {} : { [dateField]: date }}
          title={`New entry · ${dayMonth(date)}`}
          notice={
            full
              ? `This day already has ${maxPerDay} readings, the most this card keeps: saving will replace the oldest reading of the day.`
              : undefined
          }
          onSave={async (entry) => {
            await addEntry(card.id, entry, null, addAttempts.of(entry).key);
            addAttempts.done();
            setEditing(null);
            said.say(`Saved the new entry of ${dayMonth(date)}`);
          }}
          onCancel={() => {
            addAttempts.done();
            setEditing(null);
          }}
        />
      )}

      {canWrite && mode === 'edit' && opened && editRow && (
        <EntryForm
          key={`edit-${editRow.index}-${opened.etag}`}
          inputs={inputs}
          requireAny={requireAnyOf(meta)}
          initial={initialValues(inputs, { row: editRow.row, dateField })}
          extra={keptFields(editRow.row, inputs)}
          title={editRow.day ? `Edit entry · ${dayMonth(editRow.day)}` : 'Edit entry'}
          onSave={async (entry) => {
            await replaceEntry(card.id, editRow.index, entry, opened.etag, editRow.row);
            setEditing(null);
            said.say(editRow.day ? `Saved the entry of ${dayMonth(editRow.day)}` : 'Saved the entry');
          }}
          onDelete={async () => {
            await deleteEntry(card.id, editRow.index, opened.etag, editRow.row);
            setEditing(null);
            said.say(editRow.day ? `Deleted the entry of ${dayMonth(editRow.day)}` : 'Deleted the entry');
          }}
          onReload={() => setEditing(reopenEdit(rows, opened, etag))}
          onCancel={() => setEditing(null)}
        />
      )}
    </div>
  );
}
