/**
 * Environment -> one typed Config. Every variable is read here and nowhere else.
 * Names and defaults: REFERENCE section 12, overridden by the seed where it differs.
 */
import os from 'node:os';
import path from 'node:path';
import { DEFAULT_BODY_LIMIT_BYTES, DEFAULT_HOST, DEFAULT_PORT } from './limits.js';

/** The whole process configuration. Paths are absolute. */
export interface Config {
  /** Root of all state (HEALTH_HOME, default ~/klebb). */
  home: string;
  /** Card manifests folder (HEALTH_DATA_DIR, default <home>/data). */
  dataDir: string;
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
  /** Chat agent display name and avatar (CHAT_AGENT_NAME "Chat", CHAT_AGENT_EMOJI "💬", seed section 1). */
  chatAgentName: string;
  chatAgentEmoji: string;
  /** Largest accepted request body, bytes (KLEBB_BODY_LIMIT_BYTES, default 10 MB). */
  bodyLimitBytes: number;
  /** Public demo mode (KLEBB_DEMO=1) and cloud mode (KLEBB_CLOUD=1), REFERENCE section 10. */
  demo: boolean;
  cloud: boolean;
  /** Structural debug logs (HEALTH_DEBUG=1). */
  debug: boolean;
  /** Log level for pino (KLEBB_LOG_LEVEL, default "info"; "silent" in tests). */
  logLevel: string;
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
    if (!/^\d+$/.test(raw.trim())) throw new ConfigError(name, `must be a whole number, got ${JSON.stringify(raw)}`);
    const n = Number(raw.trim());
    if (n < min || n > max) throw new ConfigError(name, `must be between ${min} and ${max}, got ${n}`);
    return n;
  }
  return fallback;
}

function flag(env: Env, name: string): boolean {
  const raw = nonEmpty(env, name);
  if (raw === undefined) return false;
  if (['1', 'true', 'yes', 'on'].includes(raw.toLowerCase())) return true;
  if (['0', 'false', 'no', 'off'].includes(raw.toLowerCase())) return false;
  throw new ConfigError(name, `must be 1 or 0, got ${JSON.stringify(raw)}`);
}

function expandHome(p: string): string {
  return p === '~' || p.startsWith('~/') ? path.join(os.homedir(), p.slice(1)) : p;
}

/**
 * Reads the environment into a Config.
 * @throws ConfigError naming the variable when a value is unusable (a non-numeric port, say).
 */
export function loadConfig(env: Env = process.env): Config {
  const home = path.resolve(expandHome(nonEmpty(env, 'HEALTH_HOME') ?? path.join(os.homedir(), 'klebb')));
  const dataDir = path.resolve(expandHome(nonEmpty(env, 'HEALTH_DATA_DIR') ?? path.join(home, 'data')));
  return {
    home,
    dataDir,
    port: intVar(env, ['PORT', 'HEALTH_PORT'], DEFAULT_PORT, 0, 65535),
    host: nonEmpty(env, 'HOST') ?? DEFAULT_HOST,
    agentApiToken: nonEmpty(env, 'AGENT_API_TOKEN'),
    adminToken: nonEmpty(env, 'KLEBB_ADMIN_TOKEN'),
    instanceName: nonEmpty(env, 'HEALTH_INSTANCE_NAME') ?? 'Klebb',
    chatAgentName: nonEmpty(env, 'CHAT_AGENT_NAME') ?? 'Chat',
    chatAgentEmoji: nonEmpty(env, 'CHAT_AGENT_EMOJI') ?? '💬',
    bodyLimitBytes: intVar(env, ['KLEBB_BODY_LIMIT_BYTES'], DEFAULT_BODY_LIMIT_BYTES, 1024, 1024 * 1024 * 1024),
    demo: flag(env, 'KLEBB_DEMO'),
    cloud: flag(env, 'KLEBB_CLOUD'),
    debug: flag(env, 'HEALTH_DEBUG'),
    logLevel: nonEmpty(env, 'KLEBB_LOG_LEVEL') ?? 'info',
  };
}
