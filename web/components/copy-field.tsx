/**
 * A read-only text field with a Copy button, for values pasted elsewhere (an invite link, a
 * token, the address the phone posts to). The clipboard needs a secure context (localhost or
 * HTTPS); elsewhere a tap on the field selects it for a manual copy.
 */
import { useState } from 'preact/hooks';
import '../styles/auth.css';

export function CopyField({ label, value, name }: { label: string; value: string; name?: string }) {
  const [copied, setCopied] = useState(false);
  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
      setCopied(true);
      setTimeout(() => setCopied(false), 2000);
    } catch {
      setCopied(false);
    }
  }
  return (
    <label class="auth-field" data-copy-field={name}>
      <span class="auth-label">{label}</span>
      <span class="auth-copy">
        <input
          class="auth-input auth-mono"
          type="text"
          readOnly
          value={value}
          onFocus={(ev) => (ev.target as HTMLInputElement).select()}
        />
        <button
          type="button"
          class="auth-button"
          aria-label={copied ? `${label} copied` : `Copy ${label}`}
          onClick={() => void copy()}
        >
          {copied ? 'Copied' : 'Copy'}
        </button>
      </span>
    </label>
  );
}
