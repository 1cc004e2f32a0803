/**
 * `stepper`: a count with − and + buttons (min, max, step, default), shown in the person's
 * locale (7,5 in German). The `default` is the starting value; an optional stepper also has a
 * Clear button, so an entry can leave it out (the first − or + after clearing brings the default
 * back).
 */
import { cleanNumber, decimalPlaces } from '../../../src/common/numbers.js';
import { num } from '../../lib/format.js';
import { FieldGroup, type InputProps } from '../field.js';

/** The stepper control of an entry form. */
export function StepperInput(props: InputProps) {
  const { input, value, onChange, id } = props;
  const step = input.step ?? 1;
  const current = typeof value === 'number' && Number.isFinite(value) ? value : undefined;
  const shown = current ?? input.min ?? 0;
  const clamp = (n: number) => Math.min(input.max ?? Infinity, Math.max(input.min ?? -Infinity, n));
  // a step like 0.1 would add float artefacts (0.30000000000000004): round the sum to the decimals
  // of the step or of the value, whichever has more, so that a value with more than the step
  // (7.25 hours from the latest row, stepped by 0.5) keeps them: 7.75, not 7.8
  const decimals = Math.max(decimalPlaces(step), decimalPlaces(shown));
  const start =
    typeof input.default === 'number' && Number.isFinite(input.default) ? clamp(input.default) : undefined;
  const move = (dir: 1 | -1) =>
    onChange(
      current === undefined && start !== undefined ? start : clamp(cleanNumber(shown + dir * step, decimals)),
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
