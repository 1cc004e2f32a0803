/** `checkbox`: true or false, the whole row a 44 px touch target. */
import { helpId, type InputProps } from '../field.js';

export function CheckboxInput(props: InputProps) {
  const { input, value, onChange, id } = props;
  return (
    <div class="form-field form-check" data-input-key={input.key} data-input-type={input.type}>
      <label class="check-row" for={id}>
        <input
          id={id}
          type="checkbox"
          name={input.key}
          checked={value === true}
          aria-describedby={helpId(props)}
          onChange={(e) => onChange((e.currentTarget as HTMLInputElement).checked)}
        />
        <span>{input.label}</span>
      </label>
      {input.help && (
        <p class="form-help" id={`${id}-help`}>
          {input.help}
        </p>
      )}
    </div>
  );
}
