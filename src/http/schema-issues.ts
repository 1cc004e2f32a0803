/**
 * The `details` of a schema refusal (400 BAD_REQUEST): Ajv's problems, as Fastify reports them,
 * turned into one `{path, message}` per field, in words a person can act on. The one place
 * these messages are shaped, for every route's body, query, path and headers.
 */
import type { FastifyError } from 'fastify';
import { childPath, fieldPath, pointerSteps } from '../common/field-path.js';
import { urlTypeMessage } from './url-numbers.js';

/** One Ajv problem as Fastify reports it (with `verbose`, the schema node it broke and the value). */
interface SchemaIssue {
  instancePath: string;
  schemaPath: string;
  keyword: string;
  message?: string;
  params: Record<string, unknown>;
  parentSchema?: { errorMessage?: unknown; anyOf?: Record<string, unknown>[] };
  data?: unknown;
}

/** One refused field. */
export interface FieldProblem {
  path: string;
  message: string;
}

/** `a` or `an` before a JSON type's name. */
function withArticle(type: string): string {
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

/** What one branch of a union accepts, in a few words. */
function branchWords(branch: Record<string, unknown>): string {
  if ('const' in branch) return JSON.stringify(branch.const);
  if (typeof branch.type === 'string') return branch.type === 'null' ? 'null' : withArticle(branch.type);
  return 'a value of another form';
}

/**
 * A length limit in plain words ("must not be empty", "must be at most 20 characters", "must
 * hold at most 50 items"), for Ajv's "must NOT have fewer than 1 characters"; null for other issues.
 */
function lengthWords(v: SchemaIssue): string | null {
  const limit = v.params.limit;
  if (typeof limit !== 'number') return null;
  const n = (one: string) => `${limit} ${limit === 1 ? one : `${one}s`}`;
  switch (v.keyword) {
    case 'minLength':
      return limit === 1 ? 'must not be empty' : `must be at least ${n('character')}`;
    case 'maxLength':
      return `must be at most ${n('character')}`;
    case 'minItems':
      return limit === 1 ? 'must not be empty' : `must hold at least ${n('item')}`;
    case 'maxItems':
      return `must hold at most ${n('item')}`;
    default:
      return null;
  }
}

/** What a number's bound says in words (Ajv writes "must be >= 1"); null for other issues. */
function boundWords(v: SchemaIssue): string | null {
  const { comparison, limit } = v.params;
  if (typeof limit !== 'number') return null;
  const words: Record<string, string> = {
    '>=': 'at least',
    '<=': 'at most',
    '>': 'more than',
    '<': 'less than',
  };
  const w = typeof comparison === 'string' ? words[comparison] : undefined;
  return w ? `must be ${w} ${limit}` : null;
}

/**
 * The message of one issue, and the field it names (a missing or unknown property is named
 * itself). `inUrl`: the value was URL text, so a wrong type means it was not written as one.
 */
function describeIssue(v: SchemaIssue, at: string, inUrl: boolean): FieldProblem {
  // a URL value is text: a list here is a parameter written more than once (?limit=1&limit=2)
  if (inUrl && Array.isArray(v.data)) {
    const shown = v.data.slice(0, 3).map((x) => JSON.stringify(String(x).slice(0, 40)));
    const values = `${shown.join(', ')}${v.data.length > 3 ? ', …' : ''}`;
    return { path: at, message: `is given ${v.data.length} times (${values}): give it once` };
  }
  const own = v.parentSchema?.errorMessage;
  if (typeof own === 'string') return { path: at, message: own };
  const urlWords = inUrl && v.keyword === 'type' ? urlTypeMessage(v.params.type) : null;
  if (urlWords) return { path: at, message: urlWords };
  if (v.keyword === 'required')
    return { path: childPath(at, String(v.params.missingProperty)), message: 'is required' };
  if (v.keyword === 'additionalProperties') {
    return { path: childPath(at, String(v.params.additionalProperty)), message: 'is not a known field' };
  }
  if (v.keyword === 'anyOf' && v.parentSchema?.anyOf) {
    return { path: at, message: `must be ${v.parentSchema.anyOf.map(branchWords).join(' or ')}` };
  }
  const limitWords = lengthWords(v) ?? boundWords(v);
  if (limitWords) return { path: at, message: limitWords };
  if (v.keyword === 'enum' && Array.isArray(v.params.allowedValues)) {
    return {
      path: at,
      message: `must be one of ${v.params.allowedValues.map((x) => JSON.stringify(x)).join(', ')}`,
    };
  }
  return { path: at, message: v.message ?? 'is invalid' };
}

/** The JSON type of a value, as a schema's `type` names it. */
function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value === 'bigint' ? 'number' : typeof value;
}

/** True when `branch` is written for values of `value`'s JSON type. */
function branchTakesTypeOf(branch: Record<string, unknown>, value: unknown): boolean {
  // a literal's branch names its value: the union's summary ("asc" or "desc") says it better
  if ('const' in branch || 'enum' in branch) return false;
  const t = jsonType(value);
  const types = [branch.type].flat().filter((x): x is string => typeof x === 'string');
  if (types.length === 0) return false;
  return types.some((x) => x === t || (x === 'integer' && t === 'number'));
}

/**
 * The one branch of a refused union written for the value's JSON type, or -1. A nullable object
 * (`null` or `{start, end}`) sent as an object failed in its object branch: that branch's own
 * problems (`body.quiet_hours.start must be …`) say what is wrong, where "must be null or an
 * object" would not.
 */
function branchForValue(u: SchemaIssue): number {
  const branches = u.parentSchema?.anyOf;
  if (u.keyword !== 'anyOf' || !branches || typeof u.parentSchema?.errorMessage === 'string') return -1;
  const fitting = branches.map((b, i) => (branchTakesTypeOf(b, u.data) ? i : -1)).filter((i) => i >= 0);
  return fitting.length === 1 ? fitting[0] : -1;
}

/**
 * The `details` of a schema refusal: one entry per field, `path` prefixed by the request part
 * (`body`, `query`, `params`, `headers`). A union whose value fits one branch by its type
 * reports that branch's problems; any other union says what it accepts instead of listing its
 * branches one by one; a schema node with its own `errorMessage` speaks for its field.
 */
export function validationDetails(err: FastifyError): FieldProblem[] {
  const context = err.validationContext === 'querystring' ? 'query' : (err.validationContext ?? 'body');
  const issues = (err.validation ?? []) as unknown as SchemaIssue[];
  const unions = issues
    .filter((v) => v.keyword === 'anyOf' || typeof v.parentSchema?.errorMessage === 'string')
    .map((u) => ({ issue: u, base: `${u.schemaPath.replace(/\/anyOf$/, '')}/`, open: branchForValue(u) }));
  const hidden = (v: SchemaIssue) =>
    unions.some((u) => {
      if (u.issue === v) return u.open >= 0;
      if (!v.schemaPath.startsWith(u.base)) return false;
      return u.open < 0 || !v.schemaPath.startsWith(`${u.issue.schemaPath}/${u.open}/`);
    });
  const out: FieldProblem[] = [];
  for (const v of issues) {
    if (hidden(v)) continue;
    const d = describeIssue(v, fieldPath(context, pointerSteps(v.instancePath)), context !== 'body');
    if (!out.some((o) => o.path === d.path && o.message === d.message)) out.push(d);
  }
  return out;
}
