/**
 * `/login`: sign in with a passkey. Afterwards the page goes to `?next=` (the
 * page that sent the person here) or Today. Also: "Enter the demo" in demo mode, and on a first
 * run (no passkey yet) where to find the setup link.
 */
import { useEffect, useState } from 'preact/hooks';
import { Loading } from '../components/status.js';
import { useResource } from '../lib/use-resource.js';
import { authStatus, dropOfflineCopy, enterDemo, signInWithPasskey } from './auth-api.js';
import { AuthError, AuthScreen, messageOf } from './auth-screen.js';
import { nextTarget } from './sign-in-paths.js';

export function LoginPage() {
  const status = useResource((signal) => authStatus(signal), []);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const s = status.data;

  useEffect(() => {
    if (s?.kind === 'session') location.replace(nextTarget());
    // signed out here (the session expired, or its passkey was removed on another device): the
    // cards kept for offline use go too, as they do when signing out
    else if (s && !s.authenticated) void dropOfflineCopy();
  }, [s?.kind, s?.authenticated]);

  // the buttons are aria-disabled while busy, not disabled: a focused button that is disabled
  // drops the focus to the page, and a refused sign-in must leave it on the button; presses
  // meanwhile are ignored here
  async function run(action: () => Promise<unknown>) {
    if (busy) return;
    setBusy(true);
    setError(null);
    try {
      await action();
      location.assign(nextTarget());
    } catch (err) {
      setError(messageOf(err));
      setBusy(false);
    }
  }

  if (!s) {
    return (
      <AuthScreen title="Sign in">
        {status.error ? <AuthError message={messageOf(status.error)} /> : <Loading />}
      </AuthScreen>
    );
  }
  if (s.demo) {
    return (
      <AuthScreen name={s.name} title="Welcome to the demo">
        <p class="auth-text">
          Look around a dashboard filled with example data. Nothing you do here is kept private.
        </p>
        <button
          type="button"
          class="auth-button auth-button-primary"
          aria-disabled={busy ? 'true' : undefined}
          onClick={() => void run(enterDemo)}
        >
          Enter the demo
        </button>
        <AuthError message={error} />
      </AuthScreen>
    );
  }
  if (s.setup) {
    return (
      <AuthScreen name={s.name} title="Set up your first passkey">
        <p class="auth-text">
          No passkey is registered yet. When Klebb started, it printed a one-time setup link in its log. Open
          that link on the device you want to sign in with.
        </p>
        {s.kind === 'local' && (
          <p class="auth-text auth-muted">
            You are on the computer Klebb runs on, so you can also <a href="/">continue without signing in</a>{' '}
            until the first passkey exists.
          </p>
        )}
      </AuthScreen>
    );
  }
  return (
    <AuthScreen name={s.name} title="Sign in">
      <p class="auth-text">Use the passkey on this device: your fingerprint, face or screen lock.</p>
      <button
        type="button"
        class="auth-button auth-button-primary"
        aria-disabled={busy ? 'true' : undefined}
        onClick={() => void run(signInWithPasskey)}
      >
        {busy ? 'Waiting for your passkey…' : 'Sign in with a passkey'}
      </button>
      <AuthError message={error} />
      <p class="auth-text auth-muted">
        New device? Ask someone signed in for an invite link (Settings › Security › Add a device).
      </p>
    </AuthScreen>
  );
}
