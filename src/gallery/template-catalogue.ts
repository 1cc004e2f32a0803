/**
 * The card gallery: the templates shipped in the project's `templates/` folder, read at request
 * time (an added or edited template shows without a restart). Each file is a full manifest
 * (`<id>.json`) whose `meta.template` block carries what the gallery shows and is removed when a
 * card is made from it (docs/MANIFEST-SCHEMA.md `template`):
 * - `summary`: one or two sentences for people (the manifest's `description` is written for agents);
 * - `synonyms`: other words a person may search for ("scales" finds Body weight);
 * - `featured`: offered first, and on the welcome card of a new home;
 * - `sample`: example rows for the preview, each with `daysAgo` (0 = today) in place of its date;
 * - `keepData`: the template's `data` is the card's content (a guide, greetings) and comes with
 *   the new card; otherwise `data` is only an example and the new card starts empty
 *   (`emptyData`, or an empty list or object of the same shape), so nobody's record starts
 *   with somebody else's medicines or lab values;
 * - `defaults`: values for `{{string:name}}` placeholders in the manifest's texts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { validateForCreate } from '../cards/validate-manifest.js';
import { addDays } from '../common/dates.js';
import type { FieldError } from '../errors.js';
import { projectRoot } from '../home/project-root.js';
import { isKnownMetric } from '../ingest/hae/format/catalogue.js';

/** The folder the gallery reads. */
export function templatesDir(): string {
  return path.join(projectRoot(), 'templates');
}

/** The views a card can appear on, by the name a person sees. */
export type GalleryView = 'today' | 'trends' | 'calendar' | 'reports';

const VIEW_KEYS: [GalleryView, string][] = [
  ['today', 'view'],
  ['trends', 'trends'],
  ['calendar', 'calendar'],
  ['reports', 'reports'],
];

/** One template as `GET /api/templates` lists it. */
export interface TemplateEntry {
  id: string;
  title: string;
  emoji: string | null;
  /** For people: what the card is for. */
  description: string;
  category: string | null;
  synonyms: string[];
  featured: boolean;
  /** The pages the card appears on. */
  views: GalleryView[];
  /** What the preview draws: the card's meta (no `template` block) and example data dated from `today`. */
  preview: { meta: Record<string, unknown>; data: unknown };
}

/** A template file that cannot be offered, with why. */
export interface TemplateProblem {
  file: string;
  message: string;
  details?: FieldError[];
}

/** A parsed, valid template. */
export interface Template {
  id: string;
  manifest: Record<string, unknown> & { meta: Record<string, unknown> };
  /** The `meta.template` block (empty object when absent). */
  gallery: Record<string, unknown>;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

const strings = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string' && s.trim() !== '') : [];

/** The manifest without its gallery block, as a card made from it would be. */
export function withoutGalleryBlock(manifest: Template['manifest']): Template['manifest'] {
  const { template: _t, ...meta } = manifest.meta;
  return { ...manifest, meta };
}

function readOne(dir: string, file: string): Template | TemplateProblem {
  let parsed: unknown;
  try {
    parsed = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8'));
  } catch (err) {
    return { file, message: `not readable JSON: ${(err as Error).message}` };
  }
  if (!isObject(parsed) || !isObject(parsed.meta)) return { file, message: 'not a card manifest' };
  const manifest = parsed as Template['manifest'];
  const id = file.slice(0, -'.json'.length);
  if (manifest.meta.id !== id) return { file, message: `meta.id must be "${id}", the file's name` };
  const v = validateForCreate(withoutGalleryBlock(manifest), { isKnownMetric });
  const problems = [...v.malformed, ...v.invalid];
  if (problems.length) return { file, message: problems.map((p) => p.message).join('; '), details: problems };
  const gallery = isObject(manifest.meta.template) ? manifest.meta.template : {};
  return { id, manifest, gallery };
}

/**
 * Every template in `dir` (`*.json` regular files, sorted by id), and the files that are not
 * valid manifests (never offered).
 */
export function readTemplates(dir = templatesDir()): { templates: Template[]; problems: TemplateProblem[] } {
  const templates: Template[] = [];
  const problems: TemplateProblem[] = [];
  let names: string[];
  try {
    names = fs.readdirSync(dir).filter((n) => n.endsWith('.json') && !n.startsWith('.'));
  } catch {
    return { templates, problems };
  }
  for (const file of names.sort()) {
    if (!fs.statSync(path.join(dir, file), { throwIfNoEntry: false })?.isFile()) continue;
    const t = readOne(dir, file);
    if ('manifest' in t) templates.push(t);
    else problems.push(t);
  }
  return { templates, problems };
}

/** The date key of the card's rows (`meta.view.dateField`, default `date`). */
function dateFieldOf(meta: Record<string, unknown>): string {
  const view = meta.view;
  return isObject(view) && typeof view.dateField === 'string' ? view.dateField : 'date';
}

/**
 * The example data of a template: its `sample` rows dated `today` minus `daysAgo` (rows without
 * `daysAgo` kept as they are), else the template's own `data`.
 */
export function sampleData(t: Template, today: string): unknown {
  const sample = t.gallery.sample;
  if (!Array.isArray(sample)) return t.manifest.data ?? [];
  const dateField = dateFieldOf(t.manifest.meta);
  return sample.map((row) => {
    if (!isObject(row) || typeof row.daysAgo !== 'number') return row;
    const { daysAgo, ...rest } = row;
    return { [dateField]: addDays(today, -daysAgo), ...rest };
  });
}

/** The entry `GET /api/templates` lists for `t`; sample rows end on `today` (`YYYY-MM-DD`). */
export function templateEntry(t: Template, today: string): TemplateEntry {
  const meta = withoutGalleryBlock(t.manifest).meta;
  const views = VIEW_KEYS.filter(([, key]) => {
    const vc = meta[key];
    return isObject(vc) && vc.enabled === true && typeof vc.component === 'string';
  }).map(([name]) => name);
  return {
    id: t.id,
    title: String(meta.label),
    emoji: typeof meta.emoji === 'string' ? meta.emoji : null,
    description: typeof t.gallery.summary === 'string' ? t.gallery.summary : '',
    category: typeof meta.category === 'string' ? meta.category : null,
    synonyms: strings(t.gallery.synonyms),
    featured: t.gallery.featured === true,
    views,
    preview: { meta, data: sampleData(t, today) },
  };
}
