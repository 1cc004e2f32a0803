/** An on/off switch (role="switch"), 44 px tall to be easy to hit on a phone. */
export interface SwitchProps {
  checked: boolean;
  label: string;
  disabled?: boolean;
  onChange(next: boolean): void;
}

export function Switch({ checked, label, disabled, onChange }: SwitchProps) {
  return (
    <button
      type="button"
      class="switch"
      role="switch"
      aria-checked={checked}
      aria-label={label}
      disabled={disabled}
      onClick={() => onChange(!checked)}
    >
      <span class="switch-track" aria-hidden="true">
        <span class="switch-thumb" />
      </span>
    </button>
  );
}
