/**
 * `number`: a measured value (min, max, step, placeholder). Keeps the text typed, and is a text
 * field with a number keyboard, not `type=number`: a browser's number field reads only its own
 * locale's decimal mark, so in an English browser "72,4" typed on a German keypad became 724 (the
 * comma dropped) and was stored ten times too large. The form reads what was typed instead
 * (src/common/typed-number.ts) and says when it cannot.
 */
import { Field, helpId, type InputProps } from '../field.js';

export function NumberInput(props: InputProps) {
  const { input, value, onChange, id } = props;
  return (
    <Field input={input} id={id}>
      <input
        id={id}
        class="form-control form-number"
        type="text"
        inputMode={input.step !== undefined && Number.isInteger(input.step) ? 'numeric' : 'decimal'}
        autoComplete="off"
        spellcheck={false}
        name={input.key}
        value={typeof value === 'string' ? value : typeof value === 'number' ? String(value) : ''}
        placeholder={input.placeholder}
        aria-required={input.required || undefined}
        aria-describedby={helpId(props)}
        onInput={(e) => onChange((e.currentTarget as HTMLInputElement).value)}
      />
    </Field>
  );
}
