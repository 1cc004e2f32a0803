/**
 * Settings › Health Auto Export (`/settings/health-auto-export`): connecting the iPhone app that
 * sends Apple Health data (docs/HEALTH-AUTO-EXPORT.md), with nothing to type elsewhere:
 * - the token: create, show, make a new one (the old one stops working at once), remove; the
 *   address and the header to paste into the app's automation, each with a Copy button;
 * - the last push: when, how big, which cards it filled with how many days;
 * - the phone-fed cards, each with what it reads that the phone does not send;
 * - metrics the phone sent that no card shows, each with "Add a card" and "Hide".
 * What the phone sent is re-read every few seconds while the page is open, and when cards change.
 */
import { useEffect, useState } from 'preact/hooks';
import { CopyField } from '../components/copy-field.js';
import { ErrorNote, Loading } from '../components/status.js';
import { api } from '../lib/api.js';
import { day } from '../lib/format.js';
import { useInFlight } from '../lib/in-flight.js';
import { cardsVersion } from '../lib/live.js';
import {
  addMetricCard,
  type Discoveries,
  fitSentences,
  hideMetric,
  type LastPush,
  metricName,
  newMetrics,
  type PhoneCard,
  type PhoneStatus,
  type PhoneToken,
  readDiscoveries,
  readPhoneCards,
} from '../lib/phone-api.js';
import { useResource } from '../lib/use-resource.js';
import '../styles/auth.css';
import '../styles/phone.css';

/** How often what the phone sent is re-read while the page is open, ms. */
const REFRESH_MS = 5_000;

const when = (iso: string) =>
  new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));

/** 1 234 567 bytes → "1.2 MB". */
function size(bytes: number): string {
  if (bytes < 1000) return `${bytes} bytes`;
  if (bytes < 1_000_000) return `${Math.round(bytes / 100) / 10} kB`;
  return `${Math.round(bytes / 100_000) / 10} MB`;
}

const days = (n: number) => (n === 1 ? '1 day' : `${n} days`);

const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** A counter bumped every REFRESH_MS while the page is visible. */
function useTick(): number {
  const [tick, setTick] = useState(0);
  useEffect(() => {
    const timer = setInterval(() => {
      if (document.visibilityState === 'visible') setTick((t) => t + 1);
    }, REFRESH_MS);
    return () => clearInterval(timer);
  }, []);
  return tick;
}

export function PhoneView() {
  const tick = useTick();
  const version = cardsVersion.value;
  const token = useResource((signal) => api<PhoneToken>('/api/health-auto-export/token', { signal }), []);
  const status = useResource(
    (signal) => api<PhoneStatus>('/api/health-auto-export/status', { signal }),
    [tick, version, token.data?.token],
  );
  const cards = useResource((signal) => readPhoneCards(signal), [tick, version]);
  const found = useResource((signal) => readDiscoveries(signal), [tick, version]);
  return (
    <section class="view view-phone" aria-labelledby="view-title">
      <p class="auth-back">
        <a href="/settings">‹ Settings</a>
      </p>
      <h1 class="view-title" id="view-title">
        Health Auto Export
      </h1>
      <p class="phone-intro">
        Health Auto Export is an iPhone app that sends your Apple Health data (steps, sleep, weight, heart
        rate and more) to Klebb on a schedule. Connect it once here; new data then fills your cards by itself.
      </p>
      <ConnectPanel token={token.data} tokenError={token.error} reload={token.reload} status={status.data} />
      <LastPushPanel status={status.data} cards={cards.data?.cards} error={status.error} />
      <NewMetricsPanel found={found.data} onChange={() => found.reload()} />
      <PhoneCardsPanel cards={cards.data?.cards} />
    </section>
  );
}

function ConnectPanel({
  token,
  tokenError,
  reload,
  status,
}: {
  token: PhoneToken | undefined;
  tokenError: Error | undefined;
  reload(): void;
  status: PhoneStatus | undefined;
}) {
  const inFlight = useInFlight();
  const busy = inFlight.busy !== null;
  const [problem, setProblem] = useState<string | null>(null);
  const [asking, setAsking] = useState<'regenerate' | 'remove' | null>(null);

  // the buttons are aria-disabled while busy, not disabled: a focused button that is disabled
  // drops the focus to the page, and a refusal must leave it on the button pressed; run ignores
  // presses while a request is under way
  const run = (action: 'create' | 'regenerate' | 'remove') =>
    inFlight.run(true, async () => {
      setProblem(null);
      try {
        if (action === 'create') await api('/api/health-auto-export/token', { method: 'POST' });
        else if (action === 'regenerate')
          await api('/api/health-auto-export/token/regenerate', { method: 'POST' });
        else await api('/api/health-auto-export/token', { method: 'DELETE' });
        setAsking(null);
        reload();
      } catch (err) {
        setProblem(messageOf(err));
      }
    });

  return (
    <section class="panel" aria-labelledby="phone-connect">
      <h2 id="phone-connect" class="panel-title">
        Connect the phone
      </h2>
      {!token ? (
        tokenError ? (
          <ErrorNote error={tokenError} onRetry={reload} />
        ) : (
          <Loading />
        )
      ) : !token.token ? (
        <>
          <p class="auth-text">
            The phone needs a token: a secret that lets it send health data here, and nothing else. Nothing is
            received until you create one.
          </p>
          <button
            type="button"
            class="auth-button auth-button-primary"
            aria-disabled={busy ? 'true' : undefined}
            onClick={() => void run('create')}
          >
            Create the token
          </button>
        </>
      ) : (
        <>
          <p class="auth-text">
            In Health Auto Export, open <strong>Automations</strong>, add a <strong>REST API</strong>{' '}
            automation and fill it in with these. Choose <strong>JSON</strong> as the export format, tick the
            health metrics you want, then run it once by hand.
          </p>
          {status ? <CopyField label="URL" name="url" value={status.endpointUrl} /> : <Loading />}
          {status && onlyThisComputer(status.endpointUrl) && (
            <p class="notice phone-loopback-note" role="note">
              This address works only on this computer: your phone cannot reach it. Open Klebb here through
              the address your phone will use (this computer's name or IP address on your network, or its
              public address), and this page shows the URL to paste.
            </p>
          )}
          <fieldset class="phone-header">
            <legend class="auth-label">Header</legend>
            <CopyField label="Key" name="header-key" value="Authorization" />
            <CopyField label="Value" name="header-value" value={`Bearer ${token.token}`} />
          </fieldset>
          <p class="auth-meta">
            Anyone with this token can add data to your cards: keep it to your phone.
            {token.lastRegeneratedAt && ` Made ${when(token.lastRegeneratedAt)}.`}
          </p>
          {asking ? (
            <fieldset class="phone-confirm phone-header">
              <legend class="visually-hidden">Confirm</legend>
              <p class="auth-text">
                {asking === 'regenerate'
                  ? 'The current token stops working at once: the phone sends nothing until you paste the new one into the app.'
                  : 'The phone can no longer send anything until you create a new token.'}
              </p>
              <button
                type="button"
                class="auth-button auth-button-danger"
                aria-disabled={busy ? 'true' : undefined}
                onClick={() => void run(asking)}
              >
                {asking === 'regenerate' ? 'Make a new token' : 'Remove the token'}
              </button>
              <button
                type="button"
                class="auth-button"
                aria-disabled={busy ? 'true' : undefined}
                onClick={() => {
                  if (!busy) setAsking(null);
                }}
              >
                Keep it
              </button>
            </fieldset>
          ) : (
            <div class="phone-actions">
              <button type="button" class="auth-button" onClick={() => setAsking('regenerate')}>
                New token…
              </button>
              <button type="button" class="auth-button" onClick={() => setAsking('remove')}>
                Remove token…
              </button>
            </div>
          )}
        </>
      )}
      {problem && (
        <p class="setting-error" role="alert">
          {problem}
        </p>
      )}
    </section>
  );
}

function LastPushPanel({
  status,
  cards,
  error,
}: {
  status: PhoneStatus | undefined;
  cards: PhoneCard[] | undefined;
  error: Error | undefined;
}) {
  const push: LastPush | null | undefined = status?.lastPush;
  const labelOf = (id: string) => cards?.find((c) => c.id === id)?.label ?? id;
  return (
    <section class="panel" aria-labelledby="phone-last-push" data-last-push={push ? push.receivedAt : 'none'}>
      <h2 id="phone-last-push" class="panel-title">
        Last push
      </h2>
      {status === undefined ? (
        error ? (
          <ErrorNote error={error} />
        ) : (
          <Loading />
        )
      ) : !push ? (
        !status.lastFailedAttempt && (
          <p class="auth-text">
            Nothing has arrived yet. Once the app has run, what it sent shows here. Nothing after the app says
            it sent? Then the phone cannot reach this address: open the URL above in the phone's browser.
          </p>
        )
      ) : (
        <>
          <dl class="facts">
            <dt>Received</dt>
            <dd>{when(push.receivedAt)}</dd>
            <dt>Size</dt>
            <dd>{size(push.payloadBytes)}</dd>
            <dt>Readings</dt>
            <dd>
              {push.samples} ({push.newSamples} new)
            </dd>
          </dl>
          {push.subscribers.length === 0 ? (
            <p class="auth-text">It filled no card: add a card for what the phone sends, below.</p>
          ) : (
            <ul class="phone-filled" aria-label="Cards it filled">
              {push.subscribers.map((s) => (
                <li key={s.id} data-card-id={s.id}>
                  <strong>{labelOf(s.id)}</strong>:{' '}
                  {s.rowsWritten > 0 ? `${days(s.rowsWritten)} filled` : 'nothing new'}
                  {s.misfits?.map((m) => (
                    <span key={m.reads} class="setting-error phone-fit" data-fit-problem="">
                      {`The phone sends ${m.sends.join(', ')}; this card reads ${m.reads}.`}
                    </span>
                  ))}
                </li>
              ))}
            </ul>
          )}
          {push.warnings.length > 0 && (
            <details class="notice">
              <summary>
                {push.warnings.length === 1
                  ? 'One part could not be read'
                  : `${push.warnings.length} parts could not be read`}
              </summary>
              <ul>
                {push.warnings.map((w) => (
                  <li key={w}>{w}</li>
                ))}
              </ul>
            </details>
          )}
        </>
      )}
      {status?.lastFailedAttempt && (
        <p class="notice phone-failed-attempt" data-failed-attempt="">
          {`${push ? 'A later push' : 'A push'} ${when(status.lastFailedAttempt.receivedAt)} failed${
            status.lastFailedAttempt.status === 200 ? '' : ` (HTTP ${status.lastFailedAttempt.status})`
          }: ${status.lastFailedAttempt.error}`}
        </p>
      )}
    </section>
  );
}

/**
 * Whether `url` names this computer itself (localhost, 127.x.x.x, ::1): a phone that is given it
 * reaches itself, never Klebb. A name ending in .local is fine: the phone finds it on the network.
 */
export function onlyThisComputer(url: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase();
  } catch {
    return false;
  }
  return (
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    host === '[::1]' ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host)
  );
}

/** "Add a card" and "Hide" for the metrics the phone sent that no card shows. */
export function NewMetricsList({
  found,
  onChange,
  limit,
}: {
  found: Discoveries;
  onChange(): void;
  /** Show at most this many (the rest are counted). */
  limit?: number;
}) {
  const { busy, run } = useInFlight<string>();
  const [problem, setProblem] = useState<{ metric: string; message: string } | null>(null);
  const [added, setAdded] = useState<{ label: string; rows: number; filled: boolean } | null>(null);
  const all = newMetrics(found);
  const shown = limit === undefined ? all : all.slice(0, limit);

  const act = (metric: string, what: 'add' | 'hide', card?: string) =>
    run(metric, async () => {
      setProblem(null);
      try {
        if (what === 'add') {
          const r = await addMetricCard(metric, card);
          setAdded({ label: r.label, rows: r.rowCount, filled: card !== undefined });
        } else await hideMetric(metric, true);
        onChange();
      } catch (err) {
        setProblem({ metric, message: messageOf(err) });
      }
    });

  return (
    <>
      {added && (
        <p class="phone-added" role="status">
          {added.filled ? `“${added.label}” now comes from the phone` : `Added “${added.label}”`}
          {added.rows > 0 ? ` with ${days(added.rows)} ${added.filled ? 'on it' : 'already received'}` : ''}.
        </p>
      )}
      <ul class="setting-list phone-new-list">
        {shown.map((d) => (
          <li key={d.metric} class="setting-row" data-metric={d.metric}>
            <div class="setting-text">
              <span class="setting-label">{metricName(d.metric)}</span>
              <span class="auth-meta">First sent {when(d.firstSeenAt)}</span>
              {problem?.metric === d.metric && (
                <span class="setting-error" role="alert">
                  {problem.message}
                </span>
              )}
            </div>
            <span class="phone-row-actions">
              {d.fill && (
                <button
                  type="button"
                  class="auth-button auth-button-primary"
                  aria-disabled={busy !== null ? 'true' : undefined}
                  data-fill-card={d.fill.id}
                  onClick={() => void act(d.metric, 'add', d.fill?.id)}
                >
                  Fill {d.fill.label} from the phone
                </button>
              )}
              <button
                type="button"
                class={d.fill ? 'auth-button' : 'auth-button auth-button-primary'}
                aria-disabled={busy !== null ? 'true' : undefined}
                aria-label={`${d.fill ? 'Add a new card' : 'Add a card'} for ${metricName(d.metric)}`}
                onClick={() => void act(d.metric, 'add')}
              >
                {d.fill ? 'Add a new card' : 'Add a card'}
              </button>
              <button
                type="button"
                class="auth-button"
                aria-disabled={busy !== null ? 'true' : undefined}
                aria-label={`Hide ${metricName(d.metric)}`}
                onClick={() => void act(d.metric, 'hide')}
              >
                Hide
              </button>
            </span>
          </li>
        ))}
      </ul>
      {all.length > shown.length && (
        <p class="auth-meta">
          And {all.length - shown.length} more in <a href="/settings/health-auto-export">Settings</a>.
        </p>
      )}
    </>
  );
}

function NewMetricsPanel({ found, onChange }: { found: Discoveries | undefined; onChange(): void }) {
  const inFlight = useInFlight();
  const busy = inFlight.busy !== null;
  if (!found) return null;
  const fresh = newMetrics(found);
  const other = found.undismissed.unsupported;
  const hidden = found.dismissed.filter((d) => d.supported);
  if (fresh.length === 0 && other.length === 0 && hidden.length === 0) return null;
  const unhide = (metric: string) =>
    inFlight.run(true, async () => {
      await hideMetric(metric, false);
      onChange();
    });
  return (
    <section class="panel" aria-labelledby="phone-new">
      <h2 id="phone-new" class="panel-title">
        New from your phone
      </h2>
      {fresh.length > 0 ? (
        <>
          <p class="panel-hint">The phone sends these, but no card shows them yet.</p>
          <NewMetricsList found={found} onChange={onChange} />
        </>
      ) : (
        <p class="panel-hint">Every kind of data the phone sends has a card.</p>
      )}
      {other.length > 0 && (
        <p class="auth-meta">
          Also received and kept, but Klebb cannot make a card from them yet:{' '}
          {other.map((d) => metricName(d.metric)).join(', ')}.
        </p>
      )}
      {hidden.length > 0 && (
        <details class="phone-hidden">
          <summary>Hidden ({hidden.length})</summary>
          <ul class="setting-list">
            {hidden.map((d) => (
              <li key={d.metric} class="setting-row">
                <span class="setting-label">{metricName(d.metric)}</span>
                <button
                  type="button"
                  class="auth-button"
                  aria-disabled={busy ? 'true' : undefined}
                  onClick={() => void unhide(d.metric)}
                >
                  Show again
                </button>
              </li>
            ))}
          </ul>
        </details>
      )}
    </section>
  );
}

function PhoneCardsPanel({ cards }: { cards: PhoneCard[] | undefined }) {
  if (!cards || cards.length === 0) return null;
  return (
    <section class="panel" aria-labelledby="phone-cards">
      <h2 id="phone-cards" class="panel-title">
        Cards the phone fills
      </h2>
      <ul class="setting-list">
        {cards.map((c) => (
          <li key={c.id} class="setting-row" data-card-id={c.id}>
            <span class="setting-emoji" aria-hidden="true">
              {c.emoji ?? ''}
            </span>
            <div class="setting-text">
              <span class="setting-label">{c.label}</span>
              <span class="auth-meta">
                {metricName(c.metric)} · {c.rowCount > 0 ? days(c.rowCount) : 'nothing received yet'}
                {c.latestDate ? `, latest ${day(c.latestDate, 'short-year')}` : ''}
              </span>
              {fitSentences(c.problems).map((line) => (
                <span key={line} class="setting-error phone-fit" data-fit-problem="">
                  {line}
                </span>
              ))}
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
