/** `text` and `textarea` (maxLength, placeholder; textarea rows). */
import { Field, helpId, type InputProps } from '../field.js';

export function TextInput(props: InputProps) {
  const { input, value, onChange, id } = props;
  const common = {
    id,
    name: input.key,
    value: typeof value === 'string' ? value : value === undefined || value === null ? '' : String(value),
    placeholder: input.placeholder,
    maxLength: input.maxLength,
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
