/** `select`: one of `options` (strings or `{value, label}`), with a placeholder choice. */
import { Field, helpId, type InputProps } from '../field.js';

export function SelectInput(props: InputProps) {
  const { input, value, onChange, id } = props;
  const options = input.options ?? [];
  const selected = options.findIndex(
    (o) => o.value === value || (value !== undefined && String(o.value) === String(value)),
  );
  return (
    <Field input={input} id={id}>
      <select
        id={id}
        class="form-control form-select"
        name={input.key}
        aria-required={input.required || undefined}
        aria-describedby={helpId(props)}
        value={selected >= 0 ? String(selected) : ''}
        onChange={(e) => {
          const i = (e.currentTarget as HTMLSelectElement).value;
          onChange(i === '' ? undefined : options[Number(i)]?.value);
        }}
      >
        <option value="">{input.placeholder ?? 'Choose…'}</option>
        {options.map((o, i) => (
          <option key={i} value={String(i)}>
            {o.label}
          </option>
        ))}
      </select>
    </Field>
  );
}
