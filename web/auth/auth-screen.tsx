/**
 * The frame of the sign-in pages: the Klebb mark and the instance name above one centred card,
 * in the app's look (web/styles/auth.css on the app.css variables). No navigation: nothing else
 * is reachable before signing in.
 */
import type { ComponentChildren } from 'preact';
import { useEffect } from 'preact/hooks';
import '../styles/auth.css';

export function AuthScreen({
  name,
  title,
  children,
}: {
  name?: string;
  title: string;
  children: ComponentChildren;
}) {
  useEffect(() => {
    document.title = `${title} · ${name ?? 'Klebb'}`;
  }, [title, name]);
  return (
    <section class="auth-screen" aria-labelledby="auth-title">
      <div class="auth-card">
        <div class="auth-brand">
          <svg width="36" height="36" viewBox="0 0 32 32" aria-hidden="true" focusable="false">
            <rect width="32" height="32" rx="9" class="logo-bg" />
            <path
              d="M6 17h5l2.5-6 4 11 3-8 1.5 3H26"
              fill="none"
              stroke="#fff"
              stroke-width="2.4"
              stroke-linecap="round"
              stroke-linejoin="round"
            />
          </svg>
          <span class="auth-brand-name">{name ?? 'Klebb'}</span>
        </div>
        <h1 id="auth-title" class="auth-title">
          {title}
        </h1>
        {children}
      </div>
    </section>
  );
}

/** A problem to show under a button (role="alert", read out when it appears). */
export function AuthError({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <p class="auth-error" role="alert">
      {message}
    </p>
  );
}

/** The message of anything thrown. */
export function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
