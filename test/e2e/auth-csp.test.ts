/**
 * The page's Content-Security-Policy in Chromium ("Security headers ... a CSP that allows
 * only our own scripts, no inline script"; src/auth/security-headers.ts):
 * - the policy is enforced: an inline script and a `style` attribute set from markup are
 *   blocked and reported;
 * - what the app does itself is not blocked: Preact and uPlot set styles through the CSSOM
 *   (`el.style.x = …`, `style.cssText`), which CSP does not govern, so `style-src` needs no
 *   'unsafe-inline'. Today, Trends with drawn uPlot charts, Settings and Security raise no
 *   violation at all.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { readTemplate } from '../helpers/templates.js';
import { launchBrowser, settled, type TestBrowser } from './browser.js';

let s: TestServer;
let browser: TestBrowser | undefined;
let launchError: Error | undefined;

/** The weight template (it has a line chart on Trends) with two weeks of rows, written into the sandbox home. */
function weightCard(): unknown {
  const m = readTemplate('weight');
  const today = new Date();
  m.data = Array.from({ length: 14 }, (_, i) => {
    const d = new Date(today.getTime() - (13 - i) * 86_400_000).toISOString().slice(0, 10);
    return { date: d, kg: 80 + Math.sin(i) };
  });
  return m;
}

beforeAll(async () => {
  s = await startServer({
    before: (_home, dataDir) => {
      fs.mkdirSync(dataDir, { recursive: true });
      fs.writeFileSync(path.join(dataDir, 'weight.json'), JSON.stringify(weightCard()));
    },
  });
  try {
    browser = await launchBrowser();
  } catch (err) {
    launchError = err as Error;
  }
});

afterAll(async () => {
  await browser?.close();
  await s?.close();
});

describe('the page CSP in Chromium', { timeout: 90_000 }, () => {
  it('raises no violation on the app’s own pages, charts included', async () => {
    if (!browser) throw launchError ?? new Error('Chromium was not started');
    const w = await browser.newPage();
    await w.page.addInitScript(() => {
      const seen: string[] = [];
      (window as unknown as { __csp: string[] }).__csp = seen;
      document.addEventListener('securitypolicyviolation', (e) =>
        seen.push(`${e.violatedDirective} ${e.blockedURI}`),
      );
    });
    for (const p of ['/', '/trends', '/settings', '/settings/security']) {
      await w.page.goto(`${s.url}${p}`);
      await settled(w.page);
      if (p === '/trends')
        await w.page.locator('figure.line-chart[data-drawn="true"] canvas').first().waitFor();
      expect(await w.page.evaluate(() => (window as unknown as { __csp: string[] }).__csp), p).toEqual([]);
    }
    expect(w.problems).toEqual([]);
    await w.page.close();
  });

  it('is enforced: inline script and markup style attributes are blocked, CSSOM styles are not', async () => {
    if (!browser) throw launchError ?? new Error('Chromium was not started');
    const w = await browser.newPage();
    await w.page.goto(`${s.url}/settings`);
    await settled(w.page);
    const r = await w.page.evaluate(async () => {
      const seen: string[] = [];
      document.addEventListener('securitypolicyviolation', (e) => seen.push(e.violatedDirective));
      // what Preact and uPlot do
      const a = document.createElement('div');
      a.style.cssText = 'width: 123px';
      a.style.height = '45px';
      document.body.append(a);
      // what an injected fragment would do
      const holder = document.createElement('div');
      holder.innerHTML = '<div id="attr" style="width: 77px"></div>';
      document.body.append(holder);
      const script = document.createElement('script');
      script.textContent = 'window.__inlineRan = true';
      document.body.append(script);
      await new Promise((done) => setTimeout(done, 200));
      return {
        cssom: a.getBoundingClientRect().width,
        attr: (document.getElementById('attr') as HTMLElement).getBoundingClientRect().width === 77,
        inlineRan: (window as unknown as { __inlineRan?: boolean }).__inlineRan === true,
        seen,
      };
    });
    expect(r.cssom).toBe(123);
    expect(r.attr).toBe(false);
    expect(r.inlineRan).toBe(false);
    expect(r.seen.some((d) => d.startsWith('script-src'))).toBe(true);
    expect(r.seen.some((d) => d.startsWith('style-src'))).toBe(true);
    // Chromium reports the two blocked things on the console: that is the policy working
    const blocked = w.problems.filter((p) => !/Content Security Policy/.test(p));
    expect(blocked).toEqual([]);
    await w.page.close();
  });
});
