/**
 * One request at a time behind a button. A `disabled={busy}` from state alone is not enough:
 * the page re-renders with the button disabled only after the click handler returns, so two
 * clicks in the same tick both start the request (two cards, weight.json and weight-2.json).
 * The flag here is also kept in a ref that is set synchronously, so the second click finds it set.
 */
import { useRef, useState } from 'preact/hooks';

/** What `useInFlight` gives a component. */
export interface InFlight<K> {
  /** The key of the action under way (for the buttons' `disabled`), or null. */
  busy: K | null;
  /** Runs `fn` unless an action is under way (then does nothing); `key` names the action. */
  run(key: K, fn: () => Promise<unknown>): Promise<void>;
}

/** A synchronously set busy flag for a component's buttons that send requests. */
export function useInFlight<K = true>(): InFlight<K> {
  const now = useRef<K | null>(null);
  const [busy, setBusy] = useState<K | null>(null);
  async function run(key: K, fn: () => Promise<unknown>): Promise<void> {
    if (now.current !== null) return;
    now.current = key;
    setBusy(key);
    try {
      await fn();
    } finally {
      now.current = null;
      setBusy(null);
    }
  }
  return { busy, run };
}
