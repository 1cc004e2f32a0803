/**
 * The frame of one form input: its label (a `<label>` for single controls, a `<fieldset>` legend
 * for groups of buttons), a "required" mark, and the input's help text, linked to the control
 * with aria-describedby.
 */
import type { ComponentChildren } from 'preact';
import type { InputDescriptor } from '../../src/common/inputs.js';

/** What every input component is given. */
export interface InputProps {
  input: InputDescriptor;
  /** The form's value for this input (see form-values.ts for the shapes). */
  value: unknown;
  onChange(next: unknown): void;
  /** The control's id (labels point at it); help text is `${id}-help`. */
  id: string;
}

/** The id of an input's help text, when it has one (for aria-describedby). */
export function helpId(props: Pick<InputProps, 'input' | 'id'>): string | undefined {
  return props.input.help ? `${props.id}-help` : undefined;
}

function Label({ input }: { input: InputDescriptor }) {
  return (
    <>
      {input.label}
      {input.required && (
        <span class="form-required" aria-hidden="true">
          {' '}
          *
        </span>
      )}
    </>
  );
}

function Help({ input, id }: { input: InputDescriptor; id: string }) {
  return input.help ? (
    <p class="form-help" id={`${id}-help`}>
      {input.help}
    </p>
  ) : null;
}

/** A labelled single control (input, select, textarea). */
export function Field({
  input,
  id,
  children,
}: {
  input: InputDescriptor;
  id: string;
  children: ComponentChildren;
}) {
  return (
    <div class="form-field" data-input-key={input.key} data-input-type={input.type}>
      <label class="form-label" for={id}>
        <Label input={input} />
      </label>
      {children}
      <Help input={input} id={id} />
    </div>
  );
}

/** A labelled group of buttons (rating, emoji, chips, stepper). */
export function FieldGroup({
  input,
  id,
  children,
}: {
  input: InputDescriptor;
  id: string;
  children: ComponentChildren;
}) {
  return (
    <fieldset
      class="form-field form-group"
      data-input-key={input.key}
      data-input-type={input.type}
      aria-describedby={helpId({ input, id })}
    >
      <legend class="form-label" id={`${id}-label`}>
        <Label input={input} />
      </legend>
      {children}
      <Help input={input} id={id} />
    </fieldset>
  );
}
