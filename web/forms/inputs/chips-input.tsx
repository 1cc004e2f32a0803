/**
 * `chips` (one of `options`, tap again to clear) and `chips-multi` (any number of them, stored
 * as a list in the order of the options).
 */
import { FieldGroup, type InputProps } from '../field.js';

export function ChipsInput(props: InputProps) {
  const { input, value, onChange, id } = props;
  const options = input.options ?? [];
  const multi = input.type === 'chips-multi';
  const chosen = multi ? (Array.isArray(value) ? value : []) : [value];
  const isOn = (v: unknown) => chosen.some((c) => c === v || (c !== undefined && String(c) === String(v)));
  const toggle = (v: unknown) => {
    if (!multi) return onChange(isOn(v) ? undefined : v);
    const next = options.map((o) => o.value).filter((x) => (x === v ? !isOn(v) : isOn(x)));
    onChange(next);
  };
  return (
    <FieldGroup input={input} id={id}>
      {/* biome-ignore lint/a11y/useAriaPropsSupportedByRole: the role is group or radiogroup, both take aria-labelledby */}
      <div class="chip-set" role={multi ? 'group' : 'radiogroup'} aria-labelledby={`${id}-label`} id={id}>
        {options.map((o, i) => (
          // biome-ignore lint/a11y/useAriaPropsSupportedByRole: aria-checked only with role radio, aria-pressed only without
          <button
            key={i}
            type="button"
            role={multi ? undefined : 'radio'}
            aria-checked={multi ? undefined : isOn(o.value)}
            aria-pressed={multi ? isOn(o.value) : undefined}
            class="chip-option"
            onClick={() => toggle(o.value)}
          >
            {o.label}
          </button>
        ))}
      </div>
    </FieldGroup>
  );
}
