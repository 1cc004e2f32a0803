/** Loading, error and empty states shared by the views. */
import type { ComponentChildren } from 'preact';

export function Loading({ label = 'Loading…' }: { label?: string }) {
  return (
    <div class="state state-loading" role="status" aria-live="polite">
      <span class="spinner" aria-hidden="true" />
      {label}
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
