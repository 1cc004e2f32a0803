/**
 * The card templates shipped in `templates/` (the gallery a person can start a card from), used
 * by the tests as realistic manifests: each file is `<id>.json` with `meta.id` equal to `<id>`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { repoRoot } from './sandbox-home.js';

/** A manifest as stored in a template file. */
export type TemplateManifest = {
  $schema: string;
  meta: Record<string, unknown> & { id: string; label: string };
  description?: string;
  data?: unknown;
};

/** The folder holding the templates. */
export const templatesDir = path.join(repoRoot, 'templates');

/** The ids of every template, sorted. */
export function templateIds(): string[] {
  return fs
    .readdirSync(templatesDir)
    .filter((f) => f.endsWith('.json'))
    .map((f) => f.slice(0, -'.json'.length))
    .sort();
}

/** The raw text of template `id`. @throws when there is no such template. */
export function templateText(id: string): string {
  return fs.readFileSync(path.join(templatesDir, `${id}.json`), 'utf8');
}

/** A fresh parsed copy of template `id` (callers may change it). */
export function readTemplate(id: string): TemplateManifest {
  return JSON.parse(templateText(id)) as TemplateManifest;
}

/** The `meta` of template `id`. */
export function templateMeta(id: string): TemplateManifest['meta'] {
  return readTemplate(id).meta;
}
