/** `rating`: a whole number from `min` to `max` (1…5 by default) as a row of buttons; tap again to clear. */
import { FieldGroup, type InputProps } from '../field.js';

export function RatingInput(props: InputProps) {
  const { input, value, onChange, id } = props;
  const min = input.min ?? 1;
  const max = input.max ?? 5;
  const steps: number[] = [];
  for (let n = min; n <= max; n++) steps.push(n);
  return (
    <FieldGroup input={input} id={id}>
      <div class="rating" role="radiogroup" aria-labelledby={`${id}-label`} id={id}>
        {steps.map((n) => (
          // biome-ignore lint/a11y/useSemanticElements: rating buttons in a radiogroup; role and aria-checked say what they are
          <button
            key={n}
            type="button"
            role="radio"
            aria-checked={value === n}
            aria-label={`${n} of ${max}`}
            class={`rating-option${typeof value === 'number' && n <= value ? ' rating-filled' : ''}`}
            onClick={() => onChange(value === n ? undefined : n)}
          >
            {n}
          </button>
        ))}
      </div>
    </FieldGroup>
  );
}
