/**
 * Shared set-up of the entry-form and writable-card browser tests: a real server whose data folder
 * holds card templates (templates/) or hand-made manifests, Debian's Chromium in a fixed time zone, and the "no console errors" check after
 * every test. Each test file calls `useDashboard` once.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { readTemplate } from '../helpers/templates.js';
import { DESKTOP, launchBrowser, settled, type TestBrowser, type WatchedPage } from './browser.js';

/** A card template of templates/, parsed (a fresh copy each call). */
// biome-ignore lint/suspicious/noExplicitAny: manifests are open-ended JSON
export function example(id: string): any {
  return readTemplate(id);
}

/** What a test file gets: the server, and a way to open pages that are checked for errors. */
export interface Dashboard {
  readonly s: TestServer;
  open(pathname: string, viewport?: { width: number; height: number }): Promise<WatchedPage>;
  /**
   * Lets `w` log Chromium's "Failed to load resource: … status of N" for these statuses: the
   * refusals a test provokes on purpose (the form then shows them). Anything else still fails.
   */
  expectRefusals(w: WatchedPage, statuses: number[]): void;
  /** The card's data block as the API has it now. */
  data(id: string): Promise<unknown>;
}

/**
 * Starts a server with `manifests` (each written to `data/<meta.id>.json`; a `data` key is imported
 * into the store at start) and Chromium in `timezoneId`; closes both after the file's tests and
 * fails any test whose pages logged a console error, threw, or had a request fail.
 */
export function useDashboard(opts: {
  timezoneId: string;
  manifests: () => Record<string, unknown>[];
  /** Extra server environment (e.g. `AGENT_API_TOKEN` for writes over the REST API). */
  env?: Record<string, string>;
}): Dashboard {
  let s: TestServer | undefined;
  let browser: TestBrowser | undefined;
  let launchError: Error | undefined;
  const pages: WatchedPage[] = [];
  const allowed = new Map<WatchedPage, number[]>();

  beforeAll(async () => {
    s = await startServer({
      env: opts.env,
      before: (_home, dataDir) => {
        fs.mkdirSync(dataDir, { recursive: true });
        for (const m of opts.manifests()) {
          const id = (m.meta as { id: string }).id;
          fs.writeFileSync(path.join(dataDir, `${id}.json`), JSON.stringify(m, null, 2));
        }
      },
    });
    try {
      browser = await launchBrowser({ timezoneId: opts.timezoneId });
    } catch (err) {
      launchError = err as Error;
    }
  });

  afterEach(async () => {
    const problems = pages.flatMap((w) =>
      w.problems.filter(
        (p) =>
          !(allowed.get(w) ?? []).some((st) => p.includes(`the server responded with a status of ${st}`)),
      ),
    );
    allowed.clear();
    for (const w of pages.splice(0)) await w.page.close();
    expect(problems, 'console errors, exceptions or failed requests in the page').toEqual([]);
  });

  afterAll(async () => {
    await browser?.close();
    await s?.close();
  });

  return {
    get s() {
      if (!s) throw new Error('the server did not start');
      return s;
    },
    async open(pathname, viewport = DESKTOP) {
      if (!browser) throw launchError ?? new Error('Chromium was not started');
      if (!s) throw new Error('the server did not start');
      const w = await browser.newPage(viewport);
      pages.push(w);
      await w.page.goto(`${s.url}${pathname}`);
      await settled(w.page);
      return w;
    },
    expectRefusals(w, statuses) {
      allowed.set(w, [...(allowed.get(w) ?? []), ...statuses]);
    },
    async data(id) {
      if (!s) throw new Error('the server did not start');
      return (await s.api(`/api/manifests/${id}/data`)).body.data;
    },
  };
}

/** The card with this id on the page. */
export const cardOf = (w: WatchedPage, id: string) => w.page.locator(`main .card[data-card-id="${id}"]`);
