/**
 * `text` and `textarea` (placeholder; textarea rows). `maxLength` is checked by the form
 * (form-values.ts saveBlocker, in characters as a person counts them), not by the browser's
 * `maxlength`, which counts UTF-16 units and cuts emoji short or in half.
 */
import { Field, helpId, type InputProps } from '../field.js';

export function TextInput(props: InputProps) {
  const { input, value, onChange, id } = props;
  const common = {
    id,
    name: input.key,
    value: typeof value === 'string' ? value : value === undefined || value === null ? '' : String(value),
    placeholder: input.placeholder,
    'aria-required': input.required || undefined,
    'aria-describedby': helpId(props),
    onInput: (e: Event) => onChange((e.currentTarget as HTMLInputElement | HTMLTextAreaElement).value),
  };
  return (
    <Field input={input} id={id}>
      {input.type === 'textarea' ? (
        <textarea class="form-control form-textarea" rows={input.rows ?? 3} {...common} />
      ) : (
        <input class="form-control" type="text" autoComplete="off" {...common} />
      )}
    </Field>
  );
}
