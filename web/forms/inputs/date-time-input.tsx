/** `date` (`YYYY-MM-DD`) and `time` (`HH:MM`), the browser's own pickers. */
import { Field, helpId, type InputProps } from '../field.js';

export function DateTimeInput(props: InputProps) {
  const { input, value, onChange, id } = props;
  return (
    <Field input={input} id={id}>
      <input
        id={id}
        class="form-control form-datetime"
        type={input.type === 'time' ? 'time' : 'date'}
        name={input.key}
        value={typeof value === 'string' ? value : ''}
        aria-required={input.required || undefined}
        aria-describedby={helpId(props)}
        onInput={(e) => onChange((e.currentTarget as HTMLInputElement).value || undefined)}
      />
    </Field>
  );
}
