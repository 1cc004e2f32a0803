/** The input component for a descriptor's type (docs/MANIFEST-SCHEMA.md "Input types", plus chips). */
import type { InputProps } from './field.js';
import { CheckboxInput } from './inputs/checkbox-input.js';
import { ChipsInput } from './inputs/chips-input.js';
import { ColourInput } from './inputs/colour-input.js';
import { DateTimeInput } from './inputs/date-time-input.js';
import { EmojiInput } from './inputs/emoji-input.js';
import { NumberInput } from './inputs/number-input.js';
import { RatingInput } from './inputs/rating-input.js';
import { SelectInput } from './inputs/select-input.js';
import { StepperInput } from './inputs/stepper-input.js';
import { TextInput } from './inputs/text-input.js';

export function InputField(props: InputProps) {
  switch (props.input.type) {
    case 'number':
      return <NumberInput {...props} />;
    case 'stepper':
      return <StepperInput {...props} />;
    case 'text':
    case 'textarea':
      return <TextInput {...props} />;
    case 'select':
      return <SelectInput {...props} />;
    case 'emoji-picker':
      return <EmojiInput {...props} />;
    case 'colour':
      return <ColourInput {...props} />;
    case 'checkbox':
      return <CheckboxInput {...props} />;
    case 'date':
    case 'time':
      return <DateTimeInput {...props} />;
    case 'rating':
      return <RatingInput {...props} />;
    case 'chips':
    case 'chips-multi':
      return <ChipsInput {...props} />;
  }
}
