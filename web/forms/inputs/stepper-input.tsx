/**
 * `stepper`: a count with − and + buttons (min, max, step, default), shown in the person's
 * locale (7,5 in German). The `default` is the starting value; an optional stepper also has a
 * Clear button, so an entry can leave it out (the first − or + after clearing brings the default
 * back).
 */
import { num } from '../../lib/format.js';
import { FieldGroup, type InputProps } from '../field.js';
import { stepValue } from '../form-values.js';

/** The stepper control of an entry form. */
export function StepperInput(props: InputProps) {
  const { input, value, onChange, id } = props;
  const step = input.step ?? 1;
  const current = typeof value === 'number' && Number.isFinite(value) ? value : undefined;
  const shown = current ?? input.min ?? 0;
  const clamp = (n: number) => Math.min(input.max ?? Infinity, Math.max(input.min ?? -Infinity, n));
  const start =
    typeof input.default === 'number' && Number.isFinite(input.default) ? clamp(input.default) : undefined;
  const move = (dir: 1 | -1) =>
    onChange(
      current === undefined && start !== undefined
        ? start
        : stepValue(shown, dir, step, input.min, input.max),
    );
  return (
    <FieldGroup input={input} id={id}>
      <div class="stepper">
        <button
          type="button"
          class="stepper-button"
          aria-label={`${input.label}: less`}
          disabled={input.min !== undefined && shown <= input.min && current !== undefined}
          onClick={() => move(-1)}
        >
          −
        </button>
        <output class="stepper-value" id={id} aria-live="polite" aria-labelledby={`${id}-label`}>
          {current === undefined ? '–' : num(current)}
        </output>
        <button
          type="button"
          class="stepper-button"
          aria-label={`${input.label}: more`}
          disabled={input.max !== undefined && shown >= input.max && current !== undefined}
          onClick={() => move(1)}
        >
          +
        </button>
        {!input.required && current !== undefined && (
          <button
            type="button"
            class="stepper-clear"
            aria-label={`${input.label}: clear`}
            onClick={() => onChange(undefined)}
          >
            Clear
          </button>
        )}
      </div>
    </FieldGroup>
  );
}
