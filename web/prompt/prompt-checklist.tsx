/**
 * The body of a `checklist` daily prompt (docs/MANIFEST-SCHEMA.md "prompt": "one Taken button per
 * item due that day"): the schedule items due today (src/common/schedule.ts), in the card's
 * groups, each with a "Taken" button that records one dose `{scheduledDate, takenAt}` through the
 * rows API (web/forms/use-dose-writer.ts, as the checklist card does). An item due several times a
 * day says how many are taken; once all are, the button shows ✓ Taken (pressed), and tapping it
 * again undoes the latest dose (a mistaken tap). One write at a time; "Done" closes the prompt.
 */
import { itemDoseText } from '../../src/common/item-dose.js';
import {
  doseSlots,
  groupItems,
  isItemDue,
  itemName,
  scheduleItems,
  takenCount,
} from '../../src/common/schedule.js';
import { itemKey, useDoseWriter } from '../forms/use-dose-writer.js';
import { useCardData } from '../lib/card-data.js';
import type { PromptCard } from './prompt-rules.js';

/** Props of PromptChecklist. */
export interface PromptChecklistProps {
  card: PromptCard;
  /** The person's today, `YYYY-MM-DD`. */
  day: string;
  /** "Done": the person has ticked what they took. */
  onDone(): void;
}

export function PromptChecklist({ card, day, onDone }: PromptChecklistProps) {
  const { data, etag } = useCardData(card.id);
  const writer = useDoseWriter(card.id, card.meta, data, etag, day);
  const due = scheduleItems(data).filter((r) => isItemDue(r.item, day));

  return (
    <div class="prompt-checklist">
      {due.length === 0 && <p class="prompt-note">Nothing is due today any more.</p>}
      {groupItems(data, due).map((g) => (
        <section key={g.id ?? 'rest'} class="prompt-group" aria-label={g.label ?? undefined}>
          {g.label && <h3 class="prompt-group-title">{g.label}</h3>}
          <ul class="prompt-items">
            {g.items.map((ref) => {
              const name = itemName(ref.item, ref.index);
              const dose = itemDoseText(ref.item) ?? '';
              const slots = doseSlots(ref.item, day).length;
              const taken = Math.min(slots, takenCount(ref.item, day));
              const done = taken >= slots;
              const busy = writer.busy === itemKey(ref);
              return (
                <li key={itemKey(ref)} class={`prompt-item${done ? ' is-done' : ''}`} data-item={name}>
                  <div class="prompt-item-text">
                    <span class="prompt-item-name">{name}</span>
                    {(dose || slots > 1) && (
                      <span class="prompt-item-sub">
                        {dose}
                        {dose && slots > 1 ? ' · ' : ''}
                        {slots > 1 ? `${taken} of ${slots} taken` : ''}
                      </span>
                    )}
                  </div>
                  <button
                    type="button"
                    class={`button prompt-take${done ? ' is-done' : ' button-primary'}`}
                    aria-label={`Taken: ${name}`}
                    aria-pressed={done}
                    aria-busy={busy}
                    onClick={() => void (done ? writer.untick(ref) : writer.tick(ref))}
                  >
                    {busy ? 'Saving…' : done ? '✓ Taken' : 'Taken'}
                  </button>
                </li>
              );
            })}
          </ul>
        </section>
      ))}
      {writer.problem && (
        <p class="form-error" role="alert">
          {writer.problem}
        </p>
      )}
      <div class="prompt-actions">
        <button type="button" class="button button-primary" onClick={onDone}>
          Done
        </button>
      </div>
    </div>
  );
}
