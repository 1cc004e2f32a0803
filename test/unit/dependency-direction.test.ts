/**
 * Dependencies point downward, and the code both sides share stays runnable in a browser:
 * - the store (src/store) never imports from the cards layer (src/cards) nor from ingest
 *   (src/ingest), which build on it (a migration step of theirs is passed in by the caller);
 * - src/common, imported by the server and by the web app alike, imports only itself and
 *   packages, never a Node built-in (`node:fs`, `path`, …) nor another part of src/ (which could
 *   bring one in).
 * Biome's noRestrictedImports (biome.json) says the same while editing; this test holds it in
 * `npm test`. Test files are left out: they run under Node only.
 */
import fs from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/sandbox-home.js';

/** Every module specifier a TypeScript file imports or re-exports (static and dynamic). */
function importsOf(source: string): string[] {
  const found: string[] = [];
  const patterns = [
    /^\s*(?:import|export)\s[^'"]*?\sfrom\s+['"]([^'"]+)['"]/gm,
    /^\s*import\s+['"]([^'"]+)['"]/gm,
    /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g,
  ];
  for (const re of patterns) for (const m of source.matchAll(re)) found.push(m[1]);
  return found;
}

/** The non-test .ts files under `dir` (relative to the repository), recursively. */
function sourceFiles(dir: string): string[] {
  const abs = path.join(repoRoot, dir);
  return fs
    .readdirSync(abs, { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.tsx?$/.test(f) && !/\.test\.tsx?$/.test(f))
    .map((f) => path.join(abs, f));
}

const NODE_BUILTINS = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));

describe('dependency direction', () => {
  it('reads the imports of a file, static, re-exported and dynamic', () => {
    const found = importsOf(
      "import fs from 'node:fs';\nimport { a,\n  b } from '../cards/x.js';\nexport * from './y.js';\nimport './side.js';\nconst m = await import('../z.js');\n",
    );
    expect(found.sort()).toEqual(['../cards/x.js', '../z.js', './side.js', './y.js', 'node:fs'].sort());
  });

  it.each(['src/cards', 'src/ingest'])('the store imports nothing from %s', (layer) => {
    const above = path.join(repoRoot, layer);
    const offending: string[] = [];
    for (const file of sourceFiles('src/store')) {
      for (const spec of importsOf(fs.readFileSync(file, 'utf8'))) {
        if (!spec.startsWith('.')) continue;
        const target = path.resolve(path.dirname(file), spec);
        if (target === above || target.startsWith(`${above}${path.sep}`)) {
          offending.push(`${path.relative(repoRoot, file)} imports ${spec}`);
        }
      }
    }
    expect(offending).toEqual([]);
  });

  it('src/common imports no Node built-in and nothing outside itself', () => {
    const common = path.join(repoRoot, 'src/common');
    const offending: string[] = [];
    for (const file of sourceFiles('src/common')) {
      for (const spec of importsOf(fs.readFileSync(file, 'utf8'))) {
        const where = path.relative(repoRoot, file);
        if (NODE_BUILTINS.has(spec)) offending.push(`${where} imports the Node module ${spec}`);
        else if (spec.startsWith('.')) {
          const target = path.resolve(path.dirname(file), spec);
          if (!target.startsWith(`${common}${path.sep}`)) offending.push(`${where} imports ${spec}`);
        }
      }
    }
    expect(offending).toEqual([]);
  });
});
