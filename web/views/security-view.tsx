/**
 * Settings › Security (`/settings/security`; docs/API.md "Authentication"):
 * - who is signed in, and signing out;
 * - the account's passkeys (name, added, last used, this device), removing one (the server
 *   refuses the last: 409), adding a passkey on this device, and "Add a device": a single-use
 *   invite link to open on the other device;
 * - named agent tokens: create one read-only or read-write (the secret is shown once), see
 *   when each was last used, revoke.
 * Removing or revoking asks for a second tap in place (no browser dialog).
 */
import { useState } from 'preact/hooks';
import { MAX_NICKNAME_CHARS, MAX_TOKEN_NAME_CHARS } from '../../src/common/limits.js';
import { type AuthStatus, authStatus, registerPasskey, signOut } from '../auth/auth-api.js';
import { ConfirmRemoveRow } from '../components/confirm-remove-row.js';
import { CopyField } from '../components/copy-field.js';
import { ErrorNote, Loading } from '../components/status.js';
import { api } from '../lib/api.js';
import { lengthNotice } from '../lib/char-limit.js';
import { useInFlight } from '../lib/in-flight.js';
import { useResource } from '../lib/use-resource.js';
import '../styles/auth.css';

interface Passkey {
  id: string;
  nickname: string | null;
  deviceType: 'singleDevice' | 'multiDevice';
  backedUp: boolean;
  registeredAt: string;
  lastUsedAt: string | null;
  current: boolean;
}

interface AgentToken {
  id: string;
  name: string;
  access: 'read' | 'write';
  hint: string;
  createdAt: string;
  lastUsedAt: string | null;
}

interface Invite {
  code: string;
  label: string;
  expiresAt: string;
  registerUrl: string;
}

const when = (iso: string) =>
  new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));

const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err));

export function SecurityView() {
  const status = useResource((signal) => authStatus(signal), []);
  const s = status.data;
  return (
    <section class="view view-security" aria-labelledby="view-title">
      <p class="auth-back">
        <a href="/settings">‹ Settings</a>
      </p>
      <h1 class="view-title" id="view-title">
        Security
      </h1>
      {!s ? (
        status.error ? (
          <ErrorNote error={status.error} onRetry={status.reload} />
        ) : (
          <Loading />
        )
      ) : (
        <>
          <AccountPanel status={s} />
          {s.kind === 'session' && !s.demo && <PasskeysPanel />}
          {s.kind === 'session' && !s.demo && <TokensPanel />}
        </>
      )}
    </section>
  );
}

function AccountPanel({ status }: { status: AuthStatus }) {
  const [busy, setBusy] = useState(false);
  async function leave() {
    setBusy(true);
    try {
      await signOut();
    } finally {
      location.assign('/login');
    }
  }
  return (
    <section class="panel" aria-labelledby="security-account">
      <h2 id="security-account" class="panel-title">
        Your account
      </h2>
      {status.kind === 'session' ? (
        <div class="auth-row">
          <p class="auth-text">
            Signed in as <strong>{status.label}</strong>
            {status.demo ? ' (demo)' : ''}.
          </p>
          <button type="button" class="auth-button" disabled={busy} onClick={() => void leave()}>
            Sign out
          </button>
        </div>
      ) : status.demo ? (
        <p class="auth-text">This is a demo: passkeys and tokens are switched off.</p>
      ) : (
        <p class="auth-text">
          You are using Klebb on the computer it runs on, without signing in. To use it from your phone or any
          other device, register a passkey with the one-time setup link that Klebb printed in its log when it
          started. Once a passkey exists, everyone signs in with a passkey, this computer included. Named
          agent tokens are made here after you sign in with a passkey (a token made before any passkey exists
          could outlive it).
        </p>
      )}
    </section>
  );
}

function PasskeysPanel() {
  const list = useResource((signal) => api<{ credentials: Passkey[] }>('/api/credentials', { signal }), []);
  const [confirming, setConfirming] = useState<string | null>(null);
  const [problem, setProblem] = useState<{ id: string; message: string } | null>(null);
  const [invite, setInvite] = useState<Invite | null>(null);
  const [inviteError, setInviteError] = useState<string | null>(null);
  const [nickname, setNickname] = useState('');
  // set at the click, not at the next render: a double tap sends once
  const passkeyFlight = useInFlight();
  const adding = passkeyFlight.busy !== null;
  const inviteFlight = useInFlight();
  const [addError, setAddError] = useState<string | null>(null);
  const nicknameTooLong = lengthNotice('The name', nickname.trim(), MAX_NICKNAME_CHARS);

  async function remove(p: Passkey) {
    setProblem(null);
    try {
      const r = await api<{ signedOut: boolean }>(`/api/credentials/${encodeURIComponent(p.id)}`, {
        method: 'DELETE',
      });
      if (r.signedOut) {
        location.assign('/login');
        return;
      }
      setConfirming(null);
      list.reload();
    } catch (err) {
      setConfirming(null);
      setProblem({ id: p.id, message: messageOf(err) });
    }
  }

  function makeInvite() {
    return inviteFlight.run(true, async () => {
      setInviteError(null);
      try {
        setInvite(await api<Invite>('/api/invites', { method: 'POST' }));
      } catch (err) {
        setInviteError(messageOf(err));
      }
    });
  }

  function addHere(ev: Event) {
    ev.preventDefault();
    if (nicknameTooLong) return;
    return passkeyFlight.run(true, async () => {
      setAddError(null);
      try {
        await registerPasskey({ nickname: nickname.trim() });
        setNickname('');
        list.reload();
      } catch (err) {
        setAddError(messageOf(err));
      }
    });
  }

  return (
    <section class="panel" aria-labelledby="security-passkeys">
      <h2 id="security-passkeys" class="panel-title">
        Passkeys
      </h2>
      <p class="panel-hint">The devices that can sign in to your account.</p>
      {!list.data ? (
        list.error ? (
          <ErrorNote error={list.error} onRetry={list.reload} />
        ) : (
          <Loading />
        )
      ) : (
        <ul class="setting-list" aria-label="Your passkeys">
          {list.data.credentials.map((p) => (
            <ConfirmRemoveRow
              key={p.id}
              attrs={{ 'data-passkey-id': p.id }}
              emoji="🔑"
              label={
                <>
                  {p.nickname ?? 'Passkey'}
                  {p.current && <span class="auth-badge">This device</span>}
                </>
              }
              meta={
                <>
                  Added {when(p.registeredAt)} ·{' '}
                  {p.lastUsedAt ? `last used ${when(p.lastUsedAt)}` : 'not used to sign in yet'}
                </>
              }
              problem={problem?.id === p.id ? problem.message : undefined}
              verb="Remove"
              askLabel={`Remove ${p.nickname ?? 'passkey'}`}
              confirming={confirming === p.id}
              onAsk={() => setConfirming(p.id)}
              onConfirm={() => void remove(p)}
              onKeep={() => setConfirming(null)}
            />
          ))}
        </ul>
      )}
      <div class="auth-section">
        <h3 class="auth-subtitle">Add a device</h3>
        <p class="auth-text auth-muted">
          Make a single-use link, open it on the other device (phone, tablet, another computer) and create a
          passkey there.
        </p>
        <button type="button" class="auth-button auth-button-primary" onClick={() => void makeInvite()}>
          Make an invite link
        </button>
        {invite && (
          <div class="auth-secret" data-invite="">
            <CopyField label="Invite link" value={invite.registerUrl} />
            <p class="auth-meta">Works once, until {when(invite.expiresAt)}.</p>
          </div>
        )}
        {inviteError && (
          <p class="auth-error" role="alert">
            {inviteError}
          </p>
        )}
      </div>
      <form class="auth-section auth-form" onSubmit={(ev) => void addHere(ev)}>
        <h3 class="auth-subtitle">Add a passkey on this device</h3>
        <label class="auth-field">
          <span class="auth-label">Name (optional)</span>
          <input
            class="auth-input"
            type="text"
            name="passkey-nickname"
            autoComplete="off"
            aria-invalid={nicknameTooLong ? true : undefined}
            aria-describedby={nicknameTooLong ? 'passkey-nickname-limit' : undefined}
            placeholder="e.g. Security key"
            value={nickname}
            onInput={(ev) => setNickname((ev.target as HTMLInputElement).value)}
          />
        </label>
        {nicknameTooLong && (
          <p class="auth-error" id="passkey-nickname-limit" role="alert">
            {nicknameTooLong}
          </p>
        )}
        {/* aria-disabled, not disabled, while the passkey is asked for: a focused button that is
            disabled drops the focus to the page, and a refusal must leave it here (addHere and
            the in-flight flag ignore presses meanwhile) */}
        <button
          type="submit"
          class="auth-button"
          aria-disabled={adding || nicknameTooLong !== null ? 'true' : undefined}
        >
          {adding ? 'Waiting for your passkey…' : 'Add a passkey here'}
        </button>
        {addError && (
          <p class="auth-error" role="alert">
            {addError}
          </p>
        )}
      </form>
    </section>
  );
}

function TokensPanel() {
  const list = useResource((signal) => api<{ tokens: AgentToken[] }>('/api/tokens', { signal }), []);
  const [name, setName] = useState('');
  const [access, setAccess] = useState<'read' | 'write'>('read');
  const [created, setCreated] = useState<{ secret: string; token: AgentToken } | null>(null);
  const [error, setError] = useState<string | null>(null);
  // set at the click, not at the next render: a double tap makes one token
  const inFlight = useInFlight();
  const busy = inFlight.busy !== null;
  const [confirming, setConfirming] = useState<string | null>(null);
  const [problem, setProblem] = useState<{ id: string; message: string } | null>(null);
  const nameTooLong = lengthNotice('The name', name.trim(), MAX_TOKEN_NAME_CHARS);

  function create(ev: Event) {
    ev.preventDefault();
    if (nameTooLong || name.trim() === '') return;
    return inFlight.run(true, async () => {
      setError(null);
      try {
        const r = await api<{ secret: string; token: AgentToken }>('/api/tokens', {
          json: { name: name.trim(), access },
        });
        setCreated(r);
        setName('');
        list.reload();
      } catch (err) {
        setError(messageOf(err));
      }
    });
  }

  async function revoke(t: AgentToken) {
    setProblem(null);
    try {
      await api(`/api/tokens/${encodeURIComponent(t.id)}`, { method: 'DELETE' });
      if (created?.token.id === t.id) setCreated(null);
      setConfirming(null);
      list.reload();
    } catch (err) {
      setConfirming(null);
      setProblem({ id: t.id, message: messageOf(err) });
    }
  }

  return (
    <section class="panel" aria-labelledby="security-tokens">
      <h2 id="security-tokens" class="panel-title">
        Agent tokens
      </h2>
      <p class="panel-hint">
        For scripts and agents: send one as <code>Authorization: Bearer …</code>. A read-only token can look
        but not change anything.
      </p>
      {!list.data ? (
        list.error ? (
          <ErrorNote error={list.error} onRetry={list.reload} />
        ) : (
          <Loading />
        )
      ) : list.data.tokens.length === 0 ? (
        <p class="auth-text auth-muted">No tokens yet.</p>
      ) : (
        <ul class="setting-list" aria-label="Agent tokens">
          {list.data.tokens.map((t) => (
            <ConfirmRemoveRow
              key={t.id}
              attrs={{ 'data-token-id': t.id }}
              emoji="🤖"
              label={
                <>
                  {t.name}
                  <span class={`auth-badge${t.access === 'write' ? ' auth-badge-write' : ''}`}>
                    {t.access === 'write' ? 'Read-write' : 'Read-only'}
                  </span>
                </>
              }
              meta={
                <>
                  …{t.hint} · created {when(t.createdAt)} ·{' '}
                  {t.lastUsedAt ? `last used ${when(t.lastUsedAt)}` : 'never used'}
                </>
              }
              problem={problem?.id === t.id ? problem.message : undefined}
              verb="Revoke"
              askLabel={`Revoke ${t.name}`}
              confirming={confirming === t.id}
              onAsk={() => setConfirming(t.id)}
              onConfirm={() => void revoke(t)}
              onKeep={() => setConfirming(null)}
            />
          ))}
        </ul>
      )}
      {created && (
        <div class="auth-secret" data-new-token="">
          <CopyField label={`Token “${created.token.name}”`} value={created.secret} />
          <p class="auth-meta">Copy it now: it is shown only this once.</p>
        </div>
      )}
      <form class="auth-section auth-form" onSubmit={(ev) => void create(ev)}>
        <h3 class="auth-subtitle">New token</h3>
        <label class="auth-field">
          <span class="auth-label">Name</span>
          <input
            class="auth-input"
            type="text"
            name="token-name"
            required
            autoComplete="off"
            aria-invalid={nameTooLong ? true : undefined}
            aria-describedby={nameTooLong ? 'token-name-limit' : undefined}
            placeholder="e.g. Shortcuts on my phone"
            value={name}
            onInput={(ev) => setName((ev.target as HTMLInputElement).value)}
          />
        </label>
        <fieldset class="segmented">
          <legend class="visually-hidden">Access</legend>
          <label class="segment">
            <input
              type="radio"
              name="token-access"
              value="read"
              checked={access === 'read'}
              onChange={() => setAccess('read')}
            />
            Read-only
          </label>
          <label class="segment">
            <input
              type="radio"
              name="token-access"
              value="write"
              checked={access === 'write'}
              onChange={() => setAccess('write')}
            />
            Read-write
          </label>
        </fieldset>
        {nameTooLong && (
          <p class="auth-error" id="token-name-limit" role="alert">
            {nameTooLong}
          </p>
        )}
        {/* aria-disabled, not disabled, while busy: a focused button that is disabled drops the
            focus to the page, and a refusal (a name in use) must leave it here */}
        <button
          type="submit"
          class="auth-button auth-button-primary"
          aria-disabled={busy || name.trim() === '' || nameTooLong !== null ? 'true' : undefined}
        >
          Create token
        </button>
        {error && (
          <p class="auth-error" role="alert">
            {error}
          </p>
        )}
      </form>
    </section>
  );
}
