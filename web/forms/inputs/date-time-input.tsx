/**
 * `date` (`YYYY-MM-DD`) and `time` (`HH:MM`), the browser's own pickers. A date picker offers the
 * days the server takes (FIRST_PLAUSIBLE_DAY … LAST_PLAUSIBLE_DAY), so a year typed as 0000 is
 * marked before Save.
 */
import { FIRST_PLAUSIBLE_DAY, LAST_PLAUSIBLE_DAY } from '../../../src/common/limits.js';
import { Field, helpId, type InputProps } from '../field.js';

export function DateTimeInput(props: InputProps) {
  const { input, value, onChange, id } = props;
  return (
    <Field input={input} id={id}>
      <input
        id={id}
        class="form-control form-datetime"
        type={input.type === 'time' ? 'time' : 'date'}
        min={input.type === 'date' ? FIRST_PLAUSIBLE_DAY : undefined}
        max={input.type === 'date' ? LAST_PLAUSIBLE_DAY : undefined}
        name={input.key}
        value={typeof value === 'string' ? value : ''}
        aria-required={input.required || undefined}
        aria-describedby={helpId(props)}
        onInput={(e) => onChange((e.currentTarget as HTMLInputElement).value || undefined)}
      />
    </Field>
  );
}
