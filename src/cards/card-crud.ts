/**
 * Listing, reading, creating, patching and deleting cards (docs/API.md
 * "Manifests"). Plain functions over a CardContext: the HTTP routes and the chat tools call these.
 */
import fs from 'node:fs';
import path from 'node:path';
import { canonicalJson } from '../common/canonical-json.js';
import { addDays, todayIn } from '../common/dates.js';
import { SCHEDULE_HISTORY_KEY } from '../common/schedule.js';
import { writePolicyOf } from '../common/write-policy.js';
import { badRequest, conflict, type FieldError, invalid, KlebbError } from '../errors.js';
import { fsyncDir, writeTemp } from '../home/atomic-write.js';
import { asidePathFor, placeNoReplace, restoreAside } from '../home/commit-file.js';
import { ingestFitErrors } from '../ingest/hae/card-fit.js';
import { withIngestCategory } from '../ingest/hae/cards.js';
import { isKnownMetric } from '../ingest/hae/format/catalogue.js';
import { DEFAULT_CARD_ORDER } from '../limits.js';
import type { Actor } from '../store/change-log.js';
import { mergePatch } from '../store/row-ops.js';
import { notSaved } from '../store/storage-faults.js';
import {
  assertFileLoads,
  type CardContext,
  findCard,
  requireCard,
  writeCardManifest,
} from './card-context.js';
import { assertRowYears, assertSchemaType, withTrimmedDates } from './card-data.js';
import { cardEtag, dataWriteTags } from './card-etag.js';
import { cardFilePath } from './card-id.js';
import type { Card } from './card-registry.js';
import { normaliseDateKeyed } from './data-normalise.js';
import { assertIfMatch } from './etag.js';
import { contentHash, type ManifestBody, serializeManifest, splitData } from './manifest-file.js';
import { assertRowsData } from './row-shape.js';
import { replacedCardSchedule } from './schedule-history.js';
import {
  loadNotes,
  type ManifestValidation,
  sanitizeAtLoad,
  validateForCreate,
  validateForPatch,
} from './validate-manifest.js';
import { autoHideWelcome } from './welcome-auto-hide.js';

/** The id of the welcome card (its rule lives in welcome-auto-hide.ts). */
export { WELCOME_CARD_ID } from './welcome-auto-hide.js';

/** One entry of `GET /api/manifests`: the manifest (meta-only) plus where it lives and a data summary. */
export type CardEntry = ManifestBody & {
  id: string;
  /** File path relative to HEALTH_HOME's data folder's parent, e.g. `data/weight.json`. */
  file: string;
  hasData: boolean;
  rowCount: number;
  version: number;
  updatedAt: string | null;
};

/** Sort key of a card: `meta.order` (absent: 1000), then label, then id. */
export function compareCards(a: Card, b: Card): number {
  const oa = typeof a.manifest.meta.order === 'number' ? a.manifest.meta.order : DEFAULT_CARD_ORDER;
  const ob = typeof b.manifest.meta.order === 'number' ? b.manifest.meta.order : DEFAULT_CARD_ORDER;
  if (oa !== ob) return oa - ob;
  const la = String(a.manifest.meta.label ?? '');
  const lb = String(b.manifest.meta.label ?? '');
  return la.localeCompare(lb) || a.id.localeCompare(b.id);
}

/** `GET /api/manifests`: every loaded card, sorted, and the load errors. */
export function listCards(ctx: CardContext): {
  entries: CardEntry[];
  errors: ReturnType<CardContext['registry']['errors']>;
} {
  const states = ctx.store.allStates();
  const entries = ctx.registry
    .all()
    .sort(compareCards)
    .map((card) => {
      const st = states.get(card.id);
      return {
        ...card.manifest,
        id: card.id,
        file: `data/${path.basename(card.file)}`,
        hasData: st !== undefined && st.shape !== 'none' && st.rowCount > 0,
        rowCount: st?.rowCount ?? 0,
        version: st?.version ?? 0,
        updatedAt: st?.updatedAt ?? null,
      };
    });
  return { entries, errors: ctx.registry.errors() };
}

/**
 * `GET /api/manifests/:id`: the card in its file shape with `data` re-embedded, plus `version`,
 * as JSON text built without re-serialising the rows.
 * @throws 404 for an unknown id.
 */
export function readCardJson(ctx: CardContext, id: string): { json: string; version: number } {
  const card = findCard(ctx, id);
  const st = ctx.store.state(id);
  // `version` is ours in this answer; a manifest key of that name would collide with it
  const { version: _ignored, ...manifest } = card.manifest;
  const head = JSON.stringify(manifest);
  const dataJson = ctx.store.readJson(id);
  const parts = [head.slice(1, -1)];
  if (dataJson !== undefined) parts.push(`"data":${dataJson}`);
  parts.push(`"version":${st.version}`);
  return { json: `{${parts.filter((p) => p !== '').join(',')}}`, version: st.version };
}

function throwIfInvalid(v: { malformed: FieldError[]; invalid: FieldError[] }): void {
  if (v.malformed.length) throw badRequest(v.malformed.map((e) => e.message).join('; '), v.malformed);
  if (v.invalid.length) throw invalid(v.invalid.map((e) => e.message).join('; '), v.invalid);
}

/** Result of createCard (`{ok, id, source}`, plus `welcomeAutoHidden` when the welcome card hid itself). */
export interface CreateResult {
  ok: true;
  id: string;
  source: string;
  welcomeAutoHidden: boolean;
  /** Present when rows stored under this id (its file had been deleted by hand) came back with the card. */
  restoredRows?: number;
}

/**
 * `POST /api/manifests`: validates a full manifest strictly, writes `data/<id>.json` (meta-only)
 * and its data (default `[]`) in one transaction, and hides the welcome card once when the first
 * other card is created. docs/API.md statuses: 400 malformed, 409 id in use (in memory or on
 * disk), 422 invalid id or field.
 */
export function createCard(ctx: CardContext, body: unknown, actor: Actor): CreateResult {
  throwIfInvalid(validateForCreate(body, { isKnownMetric }));
  // a phone-fed card must read the fields its metric sends (card-fit.ts)
  throwIfInvalid({ malformed: [], invalid: ingestFitErrors((body as { meta?: unknown }).meta) });
  // an HAE-fed card without a category takes its metric's
  const parsed = withIngestCategory(body) as Record<string, unknown> & { meta: Record<string, unknown> };
  const id = parsed.meta.id as string;
  const file = cardFilePath(ctx.dataDir, id);
  if (ctx.registry.has(id) || fs.existsSync(file))
    throw conflict(`meta.id "${id}" is already in use`, 'ID_IN_USE');
  const { body: raw, hasData, data: given } = splitData(parsed);
  // without data a card starts empty in the shape its schema.type asks for (an array by default)
  const wanted = (raw.schema as { type?: unknown } | undefined)?.type;
  const data = hasData
    ? withTrimmedDates({ manifest: raw as Card['manifest'] }, normaliseDateKeyed(given))
    : wanted === 'object'
      ? {}
      : wanted === undefined || wanted === 'array'
        ? []
        : undefined;
  assertSchemaType({ id, manifest: raw as Card['manifest'] }, data);
  if (hasData && (wanted === undefined || wanted === 'array'))
    assertRowsData({ id, manifest: raw as Card['manifest'] }, 0, data);
  assertRowYears({ manifest: raw as Card['manifest'] }, data);
  // rows left behind when this id's file was deleted by hand come back with the card, unless
  // the new card brings rows of its own (docs/API.md: a hand-deleted card keeps its rows)
  const orphan = ctx.store.state(id);
  const adopt =
    orphan.version > 0 && orphan.shape !== 'none' && (!hasData || (Array.isArray(data) && data.length === 0));
  const text = serializeManifest(raw);
  // a data folder gone while the server runs (moved away, being restored, a volume not mounted)
  // is not made again here: a restore putting its own folder in that place would then fail
  if (!fs.existsSync(ctx.dataDir))
    throw notSaved(`the data folder ${ctx.dataDir} is missing: moved away, being restored or not mounted`);
  commitCreate(ctx, id, file, text, adopt, () => {
    if (!adopt) ctx.store.replace(id, data, actor, 'create');
    ctx.store.changes.recordManifest(id, path.basename(file), undefined, text);
  });
  const sanitized = sanitizeAtLoad(raw);
  const { manifest } = sanitized;
  ctx.registry.put({ id, file, raw, manifest: manifest as Card['manifest'], hash: contentHash(text) });
  ctx.registry.setErrors(file, loadNotes(sanitized, path.basename(file), id));
  ctx.emit({ type: 'card-changed', id });
  ctx.emit({ type: 'data-changed', id, version: ctx.store.state(id).version });
  ctx.onCreate?.(id);
  const welcomeAutoHidden = autoHideWelcome(ctx, id);
  const result: CreateResult = { ok: true, id, source: `data/${path.basename(file)}`, welcomeAutoHidden };
  if (adopt) result.restoredRows = orphan.rowCount;
  return result;
}

const PATCHABLE = new Set(['meta', 'description']);

/**
 * The issues of `after` that `before` did not already have. A card loaded with a bad optional
 * field (dropped at load, listed in `errors`) stays patchable: only what the patch breaks is
 * refused, not what was already wrong in the file.
 */
function newIssues(before: ManifestValidation, after: ManifestValidation): ManifestValidation {
  const key = (e: FieldError) => `${e.path}\u0000${e.message}`;
  const old = new Set([...before.malformed, ...before.invalid].map(key));
  return {
    malformed: after.malformed.filter((e) => !old.has(key(e))),
    invalid: after.invalid.filter((e) => !old.has(key(e))),
  };
}

/**
 * The steps of a card creation in an order with one commit point: the manifest is written to a
 * synced temp file, then the rows and the change record are committed (`storeRows`; `adopt` when
 * rows left by a deleted file are taken over as they are), then the file is linked into
 * place. A crash before the link leaves rows and a temp file that start-up repair completes
 * (src/cards/startup-repair.ts); a failure before it removes the temp file and changes nothing.
 * @throws 409 ID_IN_USE when a file of that name appeared meanwhile (the rows are removed again).
 */
function commitCreate(
  ctx: CardContext,
  id: string,
  file: string,
  text: string,
  adopt: boolean,
  storeRows: () => void,
): void {
  const tmp = writeTemp(file, text);
  try {
    ctx.store.transaction(storeRows);
  } catch (err) {
    fs.rmSync(tmp, { force: true });
    throw err;
  }
  let placed = false;
  try {
    placed = placeNoReplace(tmp, file);
  } finally {
    if (!placed) {
      fs.rmSync(tmp, { force: true });
      if (!adopt) ctx.store.remove(id, 'system');
    }
  }
  if (!placed) throw conflict(`meta.id "${id}" is already in use`, 'ID_IN_USE');
  fsyncDir(ctx.dataDir);
}

/**
 * `PATCH /api/manifests/:id`: RFC 7396 merge patch over `meta` and `description`. `$schema`,
 * `meta.id` and `data` (and any other top-level key) cannot be patched: 400. The result is
 * validated strictly (422 naming the field). A patch that changes nothing writes nothing. A hand
 * edit saved while the patch was being written is kept, and the patch is applied over it once.
 * `ifMatch` is the request's If-Match header, compared with the whole card's ETag (card-etag.ts):
 * a patch decided on a card another device has changed since is refused, not written over it.
 * @returns `{ok, id, changed}`.
 * @throws as checkPatch, and 400 BAD_IF_MATCH, 412 PRECONDITION_FAILED (etag.ts), nothing written.
 */
export function patchCard(
  ctx: CardContext,
  id: string,
  patch: unknown,
  opts: { ifMatch?: string } = {},
): { ok: true; id: string; changed: boolean } {
  try {
    return patchCardOnce(ctx, id, patch, opts.ifMatch);
  } catch (err) {
    if (!(err instanceof KlebbError) || err.code !== 'FILE_CHANGED') throw err;
    return patchCardOnce(ctx, id, patch, opts.ifMatch);
  }
}

function patchCardOnce(
  ctx: CardContext,
  id: string,
  patch: unknown,
  ifMatch: string | undefined,
): { ok: true; id: string; changed: boolean } {
  const { card, merged } = checkPatch(ctx, id, patch, ifMatch);
  if (serializeManifest(merged) === serializeManifest(card.raw)) return { ok: true, id, changed: false };
  writeCardManifest(ctx, card, merged);
  return { ok: true, id, changed: true };
}

/**
 * The checks of patchCard, writing nothing (what an approval is asked for must be able to run).
 * @returns the card and its manifest as the patch would leave it.
 * @throws as patchCard: 400 for a malformed patch, 404 for an unknown id, 422 naming the field;
 *   with `ifMatch`, 400 BAD_IF_MATCH or 412 PRECONDITION_FAILED as assertIfMatch.
 */
export function checkPatch(
  ctx: CardContext,
  id: string,
  patch: unknown,
  ifMatch?: string,
): { card: Card; merged: ManifestBody } {
  if (patch === null || typeof patch !== 'object' || Array.isArray(patch)) {
    throw badRequest('the patch must be a JSON object with meta and/or description', [
      { path: '', message: 'must be an object' },
    ]);
  }
  const p = patch as Record<string, unknown>;
  for (const key of Object.keys(p)) {
    if (!PATCHABLE.has(key)) {
      throw badRequest(`${key} cannot be patched: only meta and description can`, [
        { path: key, message: 'cannot be patched' },
      ]);
    }
  }
  if (p.meta !== undefined && (p.meta === null || typeof p.meta !== 'object' || Array.isArray(p.meta))) {
    throw badRequest('meta in a patch must be an object', [{ path: 'meta', message: 'must be an object' }]);
  }
  const metaPatch = p.meta as Record<string, unknown> | undefined;
  if (metaPatch && Object.hasOwn(metaPatch, 'id') && metaPatch.id !== id) {
    throw badRequest('meta.id cannot be patched', [{ path: 'meta.id', message: 'cannot be patched' }]);
  }
  const card = requireCard(ctx, id);
  if (ifMatch !== undefined) assertIfMatch(ifMatch, cardEtag(ctx, id), 'card');
  const merged: ManifestBody = { ...card.raw };
  if (metaPatch) merged.meta = mergePatch(card.raw.meta ?? {}, metaPatch) as Record<string, unknown>;
  if (Object.hasOwn(p, 'description')) {
    if (p.description === null) delete merged.description;
    else merged.description = mergePatch(card.raw.description, p.description);
  }
  const rules = { originalId: id, isKnownMetric };
  throwIfInvalid(newIssues(validateForPatch(card.raw, rules), validateForPatch(merged, rules)));
  throwIfInvalid({ malformed: [], invalid: ingestFitErrors(merged.meta, card.raw.meta) });
  return { card, merged: withCardScheduleKept(ctx, id, card.raw.meta ?? {}, merged) };
}

/**
 * `merged` with the card-level schedule it replaces kept in `meta.schedule_history` (until
 * yesterday, the person's), so the days before are judged by the schedule they had
 * (schedule-history.ts); `merged` itself when the patch leaves `meta.schedule` as it was.
 */
function withCardScheduleKept(
  ctx: CardContext,
  id: string,
  before: Record<string, unknown>,
  merged: ManifestBody,
): ManifestBody {
  const after = (merged.meta ?? {}) as Record<string, unknown>;
  if (before.schedule === undefined || canonicalJson(before.schedule) === canonicalJson(after.schedule))
    return merged;
  const today = todayIn(ctx.timeZone?.());
  const field = writePolicyOf(before).dateField;
  const doseBy =
    ctx.store.state(id).shape === 'array' ? ctx.store.maxDate(id, field, `${addDays(today, -1)}~`) : null;
  const history = replacedCardSchedule(before, after, doseBy, today);
  return history ? { ...merged, meta: { ...after, [SCHEDULE_HISTORY_KEY]: history } } : merged;
}

/**
 * The checks of deleteCard, writing nothing: the card exists, and its file loads (a
 * half-finished hand edit is not thrown away: the change log could not bring it back).
 * @throws 404 for an unknown id, as assertFileLoads for a file that does not load.
 */
export function checkDelete(ctx: CardContext, id: string, ifMatch?: string): Card {
  const card = requireCard(ctx, id);
  // a deletion sent with the ETag the client read (GET /api/manifests/:id or its data) takes the
  // rows with it only when they are still those: rows a phone pushed meanwhile are not deleted unseen
  if (ifMatch !== undefined) assertIfMatch(ifMatch, dataWriteTags(ctx, id));
  assertFileLoads(ctx, card);
  return card;
}

/**
 * `DELETE /api/manifests/:id`: removes the file and the card's rows together (the rows' removal
 * is recorded as a change set, so it can be undone from the change log). The file is first
 * renamed aside; the rows' removal commits (the commit point); then the aside copy goes. A
 * failure before the commit (a full disk) puts the file back; a crash is settled at start-up.
 * `ifMatch` is the request's If-Match header, compared with the card's data ETag.
 * @throws 404 for an unknown id; 400 BAD_IF_MATCH, 412 PRECONDITION_FAILED (etag.ts), nothing deleted.
 */
export function deleteCard(
  ctx: CardContext,
  id: string,
  actor: Actor,
  opts: { ifMatch?: string } = {},
): { ok: true; id: string } {
  const card = checkDelete(ctx, id, opts.ifMatch);
  let aside: string | undefined = asidePathFor(card.file);
  try {
    fs.renameSync(card.file, aside);
  } catch (err) {
    // already gone by hand: the rows still go
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    aside = undefined;
  }
  if (aside && contentHash(fs.readFileSync(aside)) !== card.hash) {
    // saved by hand since it was read (another program): the edit stays and is loaded
    restoreAside(aside, card.file);
    ctx.loader.safeLoad(card.file);
    throw conflict(
      `the file of card "${id}" was changed by hand while it was being deleted; the hand edit was kept, try again`,
      'FILE_CHANGED',
    );
  }
  try {
    ctx.store.transaction(() => {
      ctx.store.remove(id, actor);
      ctx.store.changes.recordManifest(id, path.basename(card.file), serializeManifest(card.raw), undefined);
    });
  } catch (err) {
    if (aside) restoreAside(aside, card.file);
    throw err;
  }
  if (aside) fs.rmSync(aside, { force: true });
  fsyncDir(ctx.dataDir);
  ctx.registry.removeFile(card.file);
  ctx.emit({ type: 'card-removed', id });
  return { ok: true, id };
}
