/**
 * `/setup` (first run, with the one-time link from the server log) and `/register` (with an
 * invite link): make a passkey on this device. The link's code is in the
 * fragment (`#code=`); the page checks it first, so a spent or expired link says so before
 * the person is asked for their fingerprint. Afterwards the new session opens Today.
 */
import { useEffect, useState } from 'preact/hooks';
import { MAX_NICKNAME_CHARS } from '../../src/common/limits.js';
import { Loading } from '../components/status.js';
import { lengthNotice } from '../lib/char-limit.js';
import { useResource } from '../lib/use-resource.js';
import { type Availability, authStatus, availability, registerPasskey } from './auth-api.js';
import { AuthError, AuthScreen, messageOf } from './auth-screen.js';
import { linkCode } from './sign-in-paths.js';

const INVALID: Record<NonNullable<Availability['why']>, string> = {
  unknown: 'This link is not valid. Check that it was copied whole, or ask for a new one.',
  expired: 'This invite link has expired. Ask for a new one.',
  used: 'This invite link has already been used. Ask for a new one.',
};

/**
 * A setup link whose code the server does not know: spent, or printed before a restart (each
 * start makes a new code and the old link stops working without a word).
 */
const SETUP_INVALID =
  'This setup link is not valid: it has been used already, or Klebb restarted since it printed it (each start makes a new one). Open the newest setup link in the server log; it ends in /setup#code=…';

/** A setup link opened once a passkey exists: there is no setup any more. */
const SETUP_SPENT =
  'This link no longer works: a passkey is registered already. Sign in, or ask for an invite.';

/** The link's code, read again when only the fragment changes (a link pasted over an open page). */
function useLinkCode(): string | null {
  const [code, setCode] = useState(() => linkCode());
  useEffect(() => {
    const onHash = () => setCode(linkCode());
    addEventListener('hashchange', onHash);
    return () => removeEventListener('hashchange', onHash);
  }, []);
  return code;
}

export function RegisterPage({ mode }: { mode: 'setup' | 'invite' }) {
  const code = useLinkCode();
  const status = useResource((signal) => authStatus(signal), []);
  const avail = useResource((signal) => (code ? availability(code, signal) : Promise.resolve(null)), [code]);
  const [nickname, setNickname] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const name = status.data?.name;
  const title = mode === 'setup' ? 'Set up your first passkey' : 'Add this device';
  const tooLong = lengthNotice('The name', nickname.trim(), MAX_NICKNAME_CHARS);

  async function create(ev: Event) {
    ev.preventDefault();
    if (!code || tooLong) return;
    setBusy(true);
    setError(null);
    try {
      await registerPasskey({ code, nickname: nickname.trim() });
      location.assign('/');
    } catch (err) {
      setError(messageOf(err));
      setBusy(false);
    }
  }

  if (!code) {
    return (
      <AuthScreen name={name} title={title}>
        <p class="auth-text">
          {mode === 'setup'
            ? 'Open the one-time setup link that Klebb printed in its log when it started. It ends in /setup#code=…'
            : 'Open the invite link you were sent. It ends in /register#code=…'}
        </p>
        <p class="auth-text auth-muted">
          Already have a passkey? <a href="/login">Sign in</a>
        </p>
      </AuthScreen>
    );
  }
  if (avail.loading && !avail.data) {
    return (
      <AuthScreen name={name} title={title}>
        <Loading />
      </AuthScreen>
    );
  }
  const a = avail.data;
  if (!a?.available) {
    const why = avail.error
      ? messageOf(avail.error)
      : a?.reason !== 'invalid-invite'
        ? SETUP_SPENT
        : mode === 'setup'
          ? status.data?.setup === false
            ? SETUP_SPENT
            : SETUP_INVALID
          : INVALID[a.why ?? 'unknown'];
    return (
      <AuthScreen name={name} title={title}>
        <AuthError message={why} />
        <p class="auth-text">
          <a href="/login">Go to sign-in</a>
        </p>
      </AuthScreen>
    );
  }
  return (
    <AuthScreen name={name} title={title}>
      <p class="auth-text">
        {a.reason === 'bootstrap'
          ? 'Create the first passkey for this dashboard. From then on, you sign in with it, and you can add more devices from Settings › Security.'
          : `You are invited to add a passkey for the account “${a.label}”.`}
      </p>
      <form class="auth-form" onSubmit={(ev) => void create(ev)}>
        <label class="auth-field">
          <span class="auth-label">Name this device (optional)</span>
          <input
            class="auth-input"
            type="text"
            name="nickname"
            autoComplete="off"
            aria-invalid={tooLong ? true : undefined}
            aria-describedby={tooLong ? 'nickname-limit' : undefined}
            placeholder="e.g. My phone"
            value={nickname}
            onInput={(ev) => setNickname((ev.target as HTMLInputElement).value)}
          />
        </label>
        {tooLong && (
          <p class="auth-error" id="nickname-limit" role="alert">
            {tooLong}
          </p>
        )}
        <button type="submit" class="auth-button auth-button-primary" disabled={busy || tooLong !== null}>
          {busy ? 'Waiting for your passkey…' : 'Create a passkey'}
        </button>
      </form>
      <AuthError message={error} />
    </AuthScreen>
  );
}
