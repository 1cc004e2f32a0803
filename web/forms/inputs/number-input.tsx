/** `number`: a measured value (min, max, step, placeholder). Keeps the text typed. */
import { Field, helpId, type InputProps } from '../field.js';

export function NumberInput(props: InputProps) {
  const { input, value, onChange, id } = props;
  const step = input.step ?? 'any';
  return (
    <Field input={input} id={id}>
      <input
        id={id}
        class="form-control form-number"
        type="number"
        inputMode={input.step !== undefined && Number.isInteger(input.step) ? 'numeric' : 'decimal'}
        name={input.key}
        value={typeof value === 'string' ? value : ''}
        min={input.min}
        max={input.max}
        step={step}
        placeholder={input.placeholder}
        aria-required={input.required || undefined}
        aria-describedby={helpId(props)}
        onInput={(e) => onChange((e.currentTarget as HTMLInputElement).value)}
      />
    </Field>
  );
}
