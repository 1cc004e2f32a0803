/**
 * `emoji-picker`: one emoji from `emojis` (a mood set by default); with `emitIndex` the stored
 * value is its position 1…N. Picking the chosen one again clears it. With `autoSubmit` the form
 * saves as soon as one is picked (entry-form.tsx).
 */
import { FieldGroup, type InputProps } from '../field.js';

export function EmojiInput(props: InputProps) {
  const { input, value, onChange, id } = props;
  const emojis = input.emojis ?? [];
  return (
    <FieldGroup input={input} id={id}>
      <div class="emoji-picker" role="radiogroup" aria-labelledby={`${id}-label`} id={id}>
        {emojis.map((emoji, i) => {
          const stored = input.emitIndex ? i + 1 : emoji;
          const checked = value === stored;
          return (
            // biome-ignore lint/a11y/useSemanticElements: emoji buttons in a radiogroup; role and aria-checked say what they are
            <button
              key={`${i}-${emoji}`}
              type="button"
              role="radio"
              aria-checked={checked}
              aria-label={input.emitIndex ? `${emoji} (${i + 1} of ${emojis.length})` : emoji}
              class="emoji-option"
              onClick={() => onChange(checked ? undefined : stored)}
            >
              {emoji}
            </button>
          );
        })}
      </div>
    </FieldGroup>
  );
}
