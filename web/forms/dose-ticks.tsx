/**
 * Tick buttons for the doses of one scheduled item on one day (checklist-card, schedule-card):
 * one checkbox-like button per dose slot ("morning", "Dose 2"), the first `taken` ticked. Tapping
 * an unticked one records a dose; tapping a ticked one undoes the latest. 44 px targets. Also
 * the 30-day adherence strip both cards draw with `showSparkline`.
 */
import { dayMonth } from '../lib/dates.js';
import '../styles/forms.css';

/** Props of DoseTicks. */
export interface DoseTicksProps {
  /** The item's name, for the buttons' accessible names. */
  name: string;
  /** Slot labels in day order (src/common/schedule.ts `doseSlots`). */
  slots: readonly string[];
  /** How many doses were taken that day. */
  taken: number;
  /** No check-offs for the day at all (a read-only card, a day the card takes none for). */
  disabled?: boolean;
  /**
   * A dose of the item is being saved: presses do nothing meanwhile, but the ticks stay focusable
   * (aria-disabled, not disabled: a focused control that is disabled drops the focus to the page,
   * and a keyboard user ticking a dose lost their place).
   */
  busy?: boolean;
  /** The item's key, naming each tick as the place a check-off form gives the focus back to. */
  returnKey?: string;
  onTick(): void;
  onUntick(): void;
}

/** A time-of-day slot's label ("Morning"); '' for numbered slots ("Dose 2"), which show their number in the box. */
const slotText = (s: string) => (s === 'Dose' || /^Dose \d+$/.test(s) ? '' : s[0].toUpperCase() + s.slice(1));

export function DoseTicks({
  name,
  slots,
  taken,
  disabled,
  busy,
  returnKey,
  onTick,
  onUntick,
}: DoseTicksProps) {
  return (
    <div class="dose-ticks">
      {slots.map((slot, k) => {
        const done = k < taken;
        const label =
          slots.length === 1
            ? name
            : `${name}, ${slotText(slot) || `dose ${k + 1}`} (${k + 1} of ${slots.length})`;
        return (
          // biome-ignore lint/a11y/useSemanticElements: a button styled as a tick box; role and aria-checked say what it is
          <button
            key={`${k}-${slot}`}
            type="button"
            role="checkbox"
            aria-checked={done}
            aria-label={label}
            class={`dose-tick${done ? ' dose-tick-done' : ''}`}
            disabled={disabled}
            aria-disabled={busy ? 'true' : undefined}
            data-return-focus={returnKey === undefined ? undefined : `tick-${returnKey}-${k}`}
            onClick={() => {
              if (busy) return;
              if (done) onUntick();
              else onTick();
            }}
          >
            <span class="dose-tick-box" aria-hidden="true">
              {done ? '✓' : slots.length > 1 && !slotText(slot) ? String(k + 1) : ''}
            </span>
            {slots.length > 1 && slotText(slot) && <span class="dose-tick-label">{slotText(slot)}</span>}
          </button>
        );
      })}
    </div>
  );
}

/**
 * A strip of small day cells (oldest first), coloured by the share of doses taken that day: all,
 * some, none, or nothing due (src/common/schedule.ts `dailyShares`). For `showSparkline` on
 * checklist and schedule cards ("checklist/schedule draw 30-day adherence strips").
 */
export function AdherenceStrip({ days }: { days: { date: string; share: number | null }[] }) {
  const counted = days.filter((d) => d.share !== null);
  const full = counted.filter((d) => d.share === 1).length;
  return (
    <div
      class="adherence-strip"
      role="img"
      aria-label={`All doses taken on ${full} of the ${counted.length} days with doses due`}
    >
      {days.map((d) => (
        <span
          key={d.date}
          class={`strip-day${d.share === null ? ' strip-none' : d.share === 1 ? ' strip-full' : d.share > 0 ? ' strip-part' : ' strip-missed'}`}
          title={`${dayMonth(d.date)}: ${d.share === null ? 'nothing due' : `${Math.round(d.share * 100)}% taken`}`}
        />
      ))}
    </div>
  );
}
