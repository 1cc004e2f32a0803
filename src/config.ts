/**
 * Environment -> one typed Config. Every variable is read here and nowhere else.
 * Names and defaults: README.md and docs/CHAT-AGENT.md "Configuration".
 */
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { type AuthEnv, publicOriginSet, readAuthEnv, shortTokenWarnings } from './auth/auth-env.js';
import type { WatchPollSetting } from './cards/watch-mode.js';
import { type HaeEnv, readHaeEnv } from './ingest/hae/env.js';
import {
  DEFAULT_BACKUP_DAILY,
  DEFAULT_BACKUP_WEEKLY,
  DEFAULT_BODY_LIMIT_BYTES,
  DEFAULT_CHAT_MAX_TURNS,
  DEFAULT_HOST,
  DEFAULT_ITER_TIMEOUT_MS,
  DEFAULT_PORT,
  DEFAULT_TURN_DEADLINE_MS,
  TRANSPORT_HOP_CEILING_MS,
} from './limits.js';
import { vapidSubject } from './push/vapid-subject.js';
import { type ReportsEnv, readReportsEnv } from './reports/reports-env.js';

/** The whole process configuration. Paths are absolute. */
export interface Config {
  /** Root of all state (HEALTH_HOME, default ~/klebb). */
  home: string;
  /** Card manifests folder (HEALTH_DATA_DIR, default <home>/data). */
  dataDir: string;
  /**
   * Watch the data folder by polling its files (HEALTH_WATCH_POLL): `auto` (default) polls a
   * folder on a network or shared file system, whose changes made elsewhere send no notice;
   * true or false for every folder (src/cards/watch-mode.ts).
   */
  watchPoll: WatchPollSetting;
  /** TCP port (PORT, alias HEALTH_PORT; default 8080; 0 picks a free port). */
  port: number;
  /** Bind address (HOST, default 0.0.0.0). */
  host: string;
  /** Server-to-server bearer token (AGENT_API_TOKEN); undefined when unset or empty. */
  agentApiToken?: string;
  /** Control-plane bearer (KLEBB_ADMIN_TOKEN); undefined when unset. */
  adminToken?: string;
  /** Branding (HEALTH_INSTANCE_NAME, default "Klebb"). */
  instanceName: string;
  /** Chat agent display name and avatar (CHAT_AGENT_NAME "Chat", CHAT_AGENT_EMOJI "💬"). */
  chatAgentName: string;
  chatAgentEmoji: string;
  /** Largest accepted request body, bytes (KLEBB_BODY_LIMIT_BYTES, default 10 MB). */
  bodyLimitBytes: number;
  /**
   * Accept requests without credentials from programs on this machine (KLEBB_TRUST_LOOPBACK,
   * default 1, but default 0 when HEALTH_ORIGIN is a non-loopback origin: behind a reverse
   * proxy every visitor would look local). Set 0 behind a reverse proxy that adds no forwarding header.
   */
  trustLoopback: boolean;
  /**
   * Reverse proxies whose forwarding headers are believed for the client address shown in logs,
   * auth events and per-address rate limits (KLEBB_TRUSTED_PROXIES: comma-separated addresses or
   * CIDR ranges, e.g. `127.0.0.1,::1`; default none). Who may enter never depends on it.
   */
  trustedProxies: string[];
  /** Public demo mode (KLEBB_DEMO=1) and cloud mode (KLEBB_CLOUD=1). */
  demo: boolean;
  cloud: boolean;
  /** Structural debug logs (HEALTH_DEBUG=1). */
  debug: boolean;
  /** Log level for pino (KLEBB_LOG_LEVEL, default "info"; "silent" in tests). */
  logLevel: string;
  /** The chat agent. */
  chat: ChatConfig;
  /** Health Auto Export limits and the legacy token (KLEBB_HAE_MAX_BYTES, KLEBB_APPLE_HEALTH_MAX_BYTES, HEALTH_AUTO_EXPORT_TOKEN). */
  hae: HaeEnv;
  /** Report uploads: KLEBB_REPORTS_MAX (default 20) and KLEBB_OCR_MODE (auto or local). */
  reports: ReportsEnv;
  /** Passkeys, sessions, origin and rate limits (HEALTH_RP_*, HEALTH_ORIGIN, KLEBB_*_RATE_LIMIT). */
  auth: AuthEnv;
  /**
   * Web Push: the VAPID contact from HEALTH_OPERATOR_EMAIL (default mailto:noreply@klebb.app), and
   * whether subscriptions may name a loopback or private address (KLEBB_PUSH_ALLOW_PRIVATE_ENDPOINTS=1,
   * default 0: only for a self-hosted push service on the local network).
   */
  push: { subject: string; allowPrivateEndpoints: boolean };
  /** Automatic snapshots kept (KLEBB_BACKUP_DAILY, default 7, 0 switches them off; KLEBB_BACKUP_WEEKLY, default 4). */
  backups: { daily: number; weekly: number };
  /** Messages for the start-up log (deprecations). */
  warnings: string[];
}

/** Chat agent settings; names and defaults from docs/CHAT-AGENT.md table and budgets. */
export interface ChatConfig {
  /** CHAT_ENDPOINT_URL (or composed from the legacy CHAT_GATEWAY_* variables); undefined: chat is off (503). */
  endpointUrl?: string;
  /** CHAT_API_KEY (legacy CHAT_GATEWAY_TOKEN); sent as a bearer when set. */
  apiKey?: string;
  /** CHAT_MODEL (legacy CHAT_GATEWAY_MODEL). */
  model: string;
  /** HEALTH_SYSTEM_PROMPT, or the contents of HEALTH_SYSTEM_PROMPT_FILE; undefined: the built-in prompt. */
  systemPrompt?: string;
  /** CHAT_MAX_TURNS: gateway round-trips per turn (default 36). */
  maxTurns: number;
  /** CHAT_ITER_TIMEOUT_MS: per-step budget, ms (default 180000, 0 disables); must stay below the 540 s hop ceiling. */
  iterTimeoutMs: number;
  /** CHAT_TURN_DEADLINE_MS: whole-turn wall clock, ms (default 720000, 0 disables). */
  turnDeadlineMs: number;
  /** CHAT_PROMPT_CACHE: system prompt as content parts with cache breakpoints (default on; 0 sends one flat string). */
  promptCache: boolean;
  /**
   * CHAT_TLS_VERIFY: check an https gateway's certificate (default on, so the API key never goes
   * to an impostor; 0 for a self-signed certificate on your own network).
   */
  tlsVerify: boolean;
}

/** A bad environment value; `variable` names it so the start-up message can say which. */
export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(`${variable}: ${message}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

function nonEmpty(env: Env, name: string): string | undefined {
  const v = env[name];
  return v === undefined || v.trim() === '' ? undefined : v;
}

function intVar(env: Env, names: string[], fallback: number, min: number, max: number): number {
  for (const name of names) {
    const raw = nonEmpty(env, name);
    if (raw === undefined) continue;
    if (!/^\d+$/.test(raw.trim()))
      throw new ConfigError(name, `must be a whole number, got ${JSON.stringify(raw)}`);
    const n = Number(raw.trim());
    if (n < min || n > max) throw new ConfigError(name, `must be between ${min} and ${max}, got ${n}`);
    return n;
  }
  return fallback;
}

/** The spellings of a switch (any letter case, spaces around ignored), as the docs list them. */
const SWITCH_ON = ['1', 'true', 'yes', 'on'];
const SWITCH_OFF = ['0', 'false', 'no', 'off'];

/**
 * A switch: SWITCH_ON or SWITCH_OFF; unset or empty is off.
 * @throws ConfigError naming the variable and every accepted spelling.
 */
function flag(env: Env, name: string): boolean {
  const raw = nonEmpty(env, name);
  if (raw === undefined) return false;
  const v = raw.trim().toLowerCase();
  if (SWITCH_ON.includes(v)) return true;
  if (SWITCH_OFF.includes(v)) return false;
  throw new ConfigError(
    name,
    `must be ${SWITCH_ON.join(', ')} (on) or ${SWITCH_OFF.join(', ')} (off), got ${JSON.stringify(raw)}`,
  );
}

/** HEALTH_WATCH_POLL: `auto` (or unset) or a switch. @throws ConfigError for anything else. */
function watchPollSetting(env: Env): WatchPollSetting {
  const raw = nonEmpty(env, 'HEALTH_WATCH_POLL');
  if (raw === undefined || raw.trim().toLowerCase() === 'auto') return 'auto';
  const v = raw.trim().toLowerCase();
  if (SWITCH_ON.includes(v)) return true;
  if (SWITCH_OFF.includes(v)) return false;
  throw new ConfigError(
    'HEALTH_WATCH_POLL',
    `must be auto, ${SWITCH_ON.join(', ')} (on) or ${SWITCH_OFF.join(', ')} (off), got ${JSON.stringify(raw)}`,
  );
}

/** pino's levels, quietest last. */
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/**
 * KLEBB_LOG_LEVEL, one of pino's levels in any letter case (default `info`).
 * @throws ConfigError for another word, which pino would refuse with a stack trace at start.
 */
function logLevel(env: Env): string {
  const raw = nonEmpty(env, 'KLEBB_LOG_LEVEL');
  if (raw === undefined) return 'info';
  const v = raw.trim().toLowerCase();
  if (LOG_LEVELS.includes(v)) return v;
  throw new ConfigError(
    'KLEBB_LOG_LEVEL',
    `must be ${LOG_LEVELS.slice(0, -1).join(', ')} or ${LOG_LEVELS.at(-1)}, got ${JSON.stringify(raw)}`,
  );
}

/** KLEBB_TRUSTED_PROXIES: addresses or CIDR ranges. @throws ConfigError naming a bad entry. */
function trustedProxies(env: Env): string[] {
  const raw = nonEmpty(env, 'KLEBB_TRUSTED_PROXIES');
  if (raw === undefined) return [];
  return raw
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '')
    .map((part) => {
      const [address, bits, extra] = part.split('/');
      const family = net.isIP(address ?? '');
      const maxBits = family === 6 ? 128 : 32;
      const bitsOk = bits === undefined || (/^\d{1,3}$/.test(bits) && Number(bits) <= maxBits);
      if (family === 0 || !bitsOk || extra !== undefined) {
        throw new ConfigError(
          'KLEBB_TRUSTED_PROXIES',
          `${JSON.stringify(part)} is not an IP address or CIDR range`,
        );
      }
      return part;
    });
}

function expandHome(p: string): string {
  return p === '~' || p.startsWith('~/') ? path.join(os.homedir(), p.slice(1)) : p;
}

/** Reads the chat variables, composing the legacy CHAT_GATEWAY_* ones into a URL (with a warning). */
function loadChat(env: Env, warnings: string[]): ChatConfig {
  let endpointUrl = nonEmpty(env, 'CHAT_ENDPOINT_URL');
  const legacyHost = nonEmpty(env, 'CHAT_GATEWAY_HOST');
  if (!endpointUrl && legacyHost) {
    const port = intVar(env, ['CHAT_GATEWAY_PORT'], 8787, 1, 65535);
    const tlsRaw = nonEmpty(env, 'CHAT_GATEWAY_TLS');
    const local = ['localhost', '127.0.0.1', '::1'].includes(legacyHost);
    const tls = tlsRaw === undefined ? !local : flag(env, 'CHAT_GATEWAY_TLS');
    const host = legacyHost.includes(':') && !legacyHost.startsWith('[') ? `[${legacyHost}]` : legacyHost;
    endpointUrl = `${tls ? 'https' : 'http'}://${host}:${port}/v1/chat/completions`;
    warnings.push(
      `CHAT_GATEWAY_HOST/PORT/TLS are deprecated: set CHAT_ENDPOINT_URL=${endpointUrl} (and CHAT_API_KEY, CHAT_MODEL) instead`,
    );
  }
  if (endpointUrl) {
    let url: URL;
    try {
      url = new URL(endpointUrl);
    } catch {
      throw new ConfigError(
        'CHAT_ENDPOINT_URL',
        `must be a full http:// or https:// URL, got ${JSON.stringify(endpointUrl)}`,
      );
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new ConfigError('CHAT_ENDPOINT_URL', `must start with http:// or https://, got ${url.protocol}`);
    }
  }
  let systemPrompt = nonEmpty(env, 'HEALTH_SYSTEM_PROMPT');
  const promptFile = nonEmpty(env, 'HEALTH_SYSTEM_PROMPT_FILE');
  if (!systemPrompt && promptFile) {
    try {
      systemPrompt = fs.readFileSync(expandHome(promptFile), 'utf8');
    } catch (err) {
      throw new ConfigError(
        'HEALTH_SYSTEM_PROMPT_FILE',
        `cannot read ${promptFile}: ${(err as Error).message}`,
      );
    }
  }
  const iterTimeoutMs = intVar(env, ['CHAT_ITER_TIMEOUT_MS'], DEFAULT_ITER_TIMEOUT_MS, 0, 24 * 3600_000);
  if (iterTimeoutMs >= TRANSPORT_HOP_CEILING_MS) {
    throw new ConfigError(
      'CHAT_ITER_TIMEOUT_MS',
      `must be below the transport's hard ${TRANSPORT_HOP_CEILING_MS / 1000} s per-hop ceiling (got ${iterTimeoutMs}); ` +
        'at or above it the per-step budget stops being soft and turns fail with 504 instead of a timeout reply',
    );
  }
  const promptCacheRaw = nonEmpty(env, 'CHAT_PROMPT_CACHE');
  return {
    endpointUrl,
    apiKey: nonEmpty(env, 'CHAT_API_KEY') ?? nonEmpty(env, 'CHAT_GATEWAY_TOKEN'),
    model: nonEmpty(env, 'CHAT_MODEL') ?? nonEmpty(env, 'CHAT_GATEWAY_MODEL') ?? '',
    systemPrompt,
    maxTurns: intVar(env, ['CHAT_MAX_TURNS'], DEFAULT_CHAT_MAX_TURNS, 1, 1000),
    iterTimeoutMs,
    turnDeadlineMs: intVar(env, ['CHAT_TURN_DEADLINE_MS'], DEFAULT_TURN_DEADLINE_MS, 0, 24 * 3600_000),
    promptCache: promptCacheRaw === undefined ? true : flag(env, 'CHAT_PROMPT_CACHE'),
    tlsVerify: nonEmpty(env, 'CHAT_TLS_VERIFY') === undefined ? true : flag(env, 'CHAT_TLS_VERIFY'),
  };
}

/** The ingestion variables (their rules live beside the ingestion code); a bad one is a ConfigError. */
function loadHae(env: Env): HaeEnv {
  try {
    return readHaeEnv(env);
  } catch (err) {
    const message = (err as Error).message;
    const name = /^([A-Z_]+):/.exec(message)?.[1] ?? 'KLEBB_HAE_MAX_BYTES';
    throw new ConfigError(name, message.replace(/^[A-Z_]+:\s*/, ''));
  }
}

/** The report-upload variables (rules in src/reports/reports-env.ts); a bad one is a ConfigError. */
function loadReports(env: Env): ReportsEnv {
  try {
    return readReportsEnv(env);
  } catch (err) {
    const message = (err as Error).message;
    const name = /^([A-Z_]+):/.exec(message)?.[1] ?? 'KLEBB_REPORTS_MAX';
    throw new ConfigError(name, message.replace(/^[A-Z_]+:\s*/, ''));
  }
}

/** The accounts-and-access variables (rules in src/auth/auth-env.ts); a bad one is a ConfigError. */
function loadAuth(env: Env, home: string, instanceName: string): AuthEnv {
  try {
    return readAuthEnv(env, home, instanceName);
  } catch (err) {
    const message = (err as Error).message;
    const name = /^([A-Z_]+):/.exec(message)?.[1] ?? 'HEALTH_ORIGIN';
    throw new ConfigError(name, message.replace(/^[A-Z_]+:\s*/, ''));
  }
}

/** The VAPID subject (rules in src/push/vapid-subject.ts); a refused one is a ConfigError. */
function loadPush(env: Env): Config['push'] {
  try {
    return {
      subject: vapidSubject(nonEmpty(env, 'HEALTH_OPERATOR_EMAIL')),
      allowPrivateEndpoints: flag(env, 'KLEBB_PUSH_ALLOW_PRIVATE_ENDPOINTS'),
    };
  } catch (err) {
    throw new ConfigError('HEALTH_OPERATOR_EMAIL', (err as Error).message);
  }
}

/**
 * Reads the environment into a Config.
 * @throws ConfigError naming the variable when a value is unusable (a non-numeric port, say).
 */
export function loadConfig(env: Env = process.env): Config {
  const home = path.resolve(expandHome(nonEmpty(env, 'HEALTH_HOME') ?? path.join(os.homedir(), 'klebb')));
  const warnings: string[] = [];
  const dataDir = path.resolve(expandHome(nonEmpty(env, 'HEALTH_DATA_DIR') ?? path.join(home, 'data')));
  const instanceName = nonEmpty(env, 'HEALTH_INSTANCE_NAME') ?? 'Klebb';
  const auth = loadAuth(env, home, instanceName);
  warnings.push(
    ...shortTokenWarnings({
      AGENT_API_TOKEN: nonEmpty(env, 'AGENT_API_TOKEN'),
      KLEBB_ADMIN_TOKEN: nonEmpty(env, 'KLEBB_ADMIN_TOKEN'),
    }),
  );
  return {
    home,
    dataDir,
    port: intVar(env, ['PORT', 'HEALTH_PORT'], DEFAULT_PORT, 0, 65535),
    host: nonEmpty(env, 'HOST') ?? DEFAULT_HOST,
    agentApiToken: nonEmpty(env, 'AGENT_API_TOKEN'),
    adminToken: nonEmpty(env, 'KLEBB_ADMIN_TOKEN'),
    instanceName,
    chatAgentName: nonEmpty(env, 'CHAT_AGENT_NAME') ?? 'Chat',
    chatAgentEmoji: nonEmpty(env, 'CHAT_AGENT_EMOJI') ?? '💬',
    bodyLimitBytes: intVar(
      env,
      ['KLEBB_BODY_LIMIT_BYTES'],
      DEFAULT_BODY_LIMIT_BYTES,
      1024,
      1024 * 1024 * 1024,
    ),
    trustLoopback:
      nonEmpty(env, 'KLEBB_TRUST_LOOPBACK') === undefined
        ? !publicOriginSet(auth.origin)
        : flag(env, 'KLEBB_TRUST_LOOPBACK'),
    trustedProxies: trustedProxies(env),
    demo: flag(env, 'KLEBB_DEMO'),
    cloud: flag(env, 'KLEBB_CLOUD'),
    debug: flag(env, 'HEALTH_DEBUG'),
    logLevel: logLevel(env),
    watchPoll: watchPollSetting(env),
    chat: loadChat(env, warnings),
    hae: loadHae(env),
    reports: loadReports(env),
    auth,
    push: loadPush(env),
    backups: {
      daily: intVar(env, ['KLEBB_BACKUP_DAILY'], DEFAULT_BACKUP_DAILY, 0, 366),
      weekly: intVar(env, ['KLEBB_BACKUP_WEEKLY'], DEFAULT_BACKUP_WEEKLY, 0, 520),
    },
    warnings,
  };
}
