/** `colour` / `color`: a colour as `#rrggbb`, unset until picked (and clearable). */
import { Field, helpId, type InputProps } from '../field.js';

export function ColourInput(props: InputProps) {
  const { input, value, onChange, id } = props;
  const set = typeof value === 'string' && /^#[0-9a-f]{6}$/i.test(value);
  return (
    <Field input={input} id={id}>
      <div class="colour-row">
        <input
          id={id}
          class="form-colour"
          type="color"
          name={input.key}
          value={set ? (value as string) : '#888888'}
          aria-describedby={helpId(props)}
          onInput={(e) => onChange((e.currentTarget as HTMLInputElement).value)}
        />
        <span class="colour-value">{set ? (value as string) : 'Not set'}</span>
        {set && !input.required && (
          <button type="button" class="button button-quiet" onClick={() => onChange(undefined)}>
            Clear
          </button>
        )}
      </div>
    </Field>
  );
}
