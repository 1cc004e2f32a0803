/** Loading, error and empty states shared by the views. */
import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';

/**
 * How long a load may take before it says it is stuck, ms. A request can wait without ever
 * failing: queued behind the browser's six connections to one server (other tabs holding
 * streams), on a phone network that drops packets silently, or behind a proxy that keeps the
 * request open while the server does not answer. A spinner alone would then turn for ever.
 */
export const SLOW_LOAD_MS = 10_000;

export function Loading({ label = 'Loading…' }: { label?: string }) {
  const [slow, setSlow] = useState(false);
  useEffect(() => {
    const t = setTimeout(() => setSlow(true), SLOW_LOAD_MS);
    return () => clearTimeout(t);
  }, []);
  return (
    <div class="state state-loading" role="status" aria-live="polite">
      <span class="spinner" aria-hidden="true" />
      {label}
      {slow && (
        <p class="state-slow">
          This is taking longer than it should: the server is not answering, or the connection is stuck (other
          Klebb tabs may be holding it).{' '}
          <button type="button" class="button" onClick={() => location.reload()}>
            Reload
          </button>
        </p>
      )}
    </div>
  );
}

export function ErrorNote({ error, onRetry }: { error: Error; onRetry?: () => void }) {
  return (
    <div class="state state-error" role="alert">
      <p>{error.message}</p>
      {onRetry && (
        <button type="button" class="button" onClick={onRetry}>
          Try again
        </button>
      )}
    </div>
  );
}

export function Empty({
  emoji,
  title,
  children,
}: {
  emoji: string;
  title: string;
  children?: ComponentChildren;
}) {
  return (
    <div class="state state-empty">
      <div class="state-emoji" aria-hidden="true">
        {emoji}
      </div>
      <h2>{title}</h2>
      {children && <p>{children}</p>}
    </div>
  );
}
