/** An on/off switch (role="switch"), 44 px tall to be easy to hit on a phone. */
export interface SwitchProps {
  checked: boolean;
  label: string;
  /** The switch cannot be used at all (nothing to switch here). */
  disabled?: boolean;
  /**
   * Its change is being saved: presses do nothing meanwhile, but the switch keeps the focus
   * (aria-disabled, not disabled: a focused control that is disabled drops the focus to the page,
   * and a keyboard user who had just pressed it lost their place).
   */
  busy?: boolean;
  onChange(next: boolean): void;
}

export function Switch({ checked, label, disabled, busy, onChange }: SwitchProps) {
  return (
    <button
      type="button"
      class="switch"
      role="switch"
      aria-checked={checked}
      aria-label={label}
      disabled={disabled}
      aria-disabled={busy ? 'true' : undefined}
      onClick={() => {
        if (!busy) onChange(!checked);
      }}
    >
      <span class="switch-track" aria-hidden="true">
        <span class="switch-thumb" />
      </span>
    </button>
  );
}
