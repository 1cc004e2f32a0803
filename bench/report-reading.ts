/**
 * report-reading: how long an uploaded report takes to be read, on this machine.
 * - A 10-page digital lab report (generated with pdfkit, tables of values, units and ranges) from
 *   the upload's 202 to `ready`: pdfinfo, pdftotext, the understanding call, the numeric
 *   fidelity gate and the write. The model is an instant stand-in in this process; its own time
 *   (a fraction of a millisecond) is measured and subtracted, so the figure excludes the model.
 * - One scanned page (the lab panel's first page rendered to an image and put into a PDF with no
 *   text layer) from 202 to `needs checking`: the same steps plus pdftoppm at 300 dpi and
 *   tesseract (English and German, one thread).
 * Also the upload request itself (until its 202). Each is run `runs` times on a fresh server
 * (KLEBB_REPORTS_MAX high enough); the median and the maximum are reported. Progress is polled
 * every 10 ms with GET /api/reports, so figures carry up to 10 ms of polling slack.
 */
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Benchmark } from './lib/bench.js';
import { gatewayMs, startInstantGateway } from './lib/instant-gateway.js';
import { BENCH_TOKEN, startKlebb } from './lib/klebb.js';
import { type Figure, progress } from './lib/report.js';
import { labPanelPdf, longLabPdf, phonePhotoPng, scannedPdf } from './lib/report-documents.js';
import { summarize } from './lib/stats.js';
import { makeTempDir } from './lib/temp.js';

/** A summary whose every number is in the generated documents (it passes the fidelity gate). */
const SUMMARY = JSON.stringify({
  health: true,
  title: 'Laboratory report',
  document_date: null,
  bullets: ['Haemoglobin 13.2 g/dL', 'HbA1c 5.9 %'],
  body: 'Haemoglobin 13.2 g/dL (12.0 - 16.0).',
  identifiers: [],
});

const auth = { authorization: `Bearer ${BENCH_TOKEN}` };

async function uploadAndWait(url: string, file: string, bytes: Buffer, until: string) {
  const t0 = performance.now();
  const res = await fetch(`${url}/api/reports/upload`, {
    method: 'POST',
    headers: { ...auth, 'x-klebb-filename': encodeURIComponent(file) },
    body: new Uint8Array(bytes),
  });
  const accepted = performance.now();
  const body = (await res.json()) as { filename?: string; error?: string };
  if (res.status !== 202 || !body.filename) throw new Error(`upload answered ${res.status}: ${body.error}`);
  for (;;) {
    const list = (await (await fetch(`${url}/api/reports`, { headers: auth })).json()) as {
      reports: { name: string; status: string; reason: string | null }[];
    };
    const r = list.reports.find((x) => x.name === body.filename);
    if (r && r.status !== 'processing') {
      if (r.status !== until) throw new Error(`${file} ended ${r.status} (${r.reason}), expected ${until}`);
      return { uploadMs: accepted - t0, readMs: performance.now() - accepted };
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

export const reportReading: Benchmark = {
  name: 'report-reading',
  title: 'Uploaded reports: a 10-page digital PDF to ready, one scanned page through OCR',
  async run(ctx) {
    const runs = ctx.quick ? 1 : 5;
    const dir = makeTempDir('klebb-bench-reports-');
    const digital = await longLabPdf(10);
    const scan = await scannedPdf(
      phonePhotoPng(await labPanelPdf(), { dpi: 300, degrees: 0.5, noise: 16, speckles: 0.0002 }),
    );
    const gw = await startInstantGateway(() => ({ kind: 'text', text: SUMMARY }));
    const server = await startKlebb(path.join(dir, 'home'), path.join(dir, 'server.log'), {
      CHAT_ENDPOINT_URL: gw.url,
      KLEBB_REPORTS_MAX: '100',
      // the scanned page is read by tesseract: the benchmark measures the local OCR
      KLEBB_OCR_MODE: 'local',
    });
    const digitalMs: number[] = [];
    const uploadMs: number[] = [];
    const scanMs: number[] = [];
    let modelMs = 0;
    try {
      for (let i = 0; i < runs; i++) {
        gw.take();
        const d = await uploadAndWait(server.url, 'ten-pages.pdf', digital, 'ready');
        const model = gatewayMs(gw.take());
        modelMs += model;
        digitalMs.push(d.readMs - model);
        uploadMs.push(d.uploadMs);
        const s = await uploadAndWait(server.url, 'scan.pdf', scan, 'needs checking');
        scanMs.push(s.readMs - gatewayMs(gw.take()));
        progress(
          `run ${i + 1}/${runs}: 10-page PDF ${digitalMs[i].toFixed(0)} ms, scanned page ${scanMs[i].toFixed(0)} ms`,
        );
      }
    } finally {
      await server.stop();
      await gw.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
    const figures: Figure[] = [
      {
        key: 'reports.digital_10p_ready_ms',
        label: '10-page digital PDF, 202 to ready, median (model excluded)',
        value: summarize(digitalMs).median,
        unit: 'ms',
      },
      {
        key: 'reports.digital_10p_ready_max_ms',
        label: '10-page digital PDF, 202 to ready, max',
        value: summarize(digitalMs).max,
        unit: 'ms',
      },
      {
        key: 'reports.scan_1p_ocr_ms',
        label: 'one scanned page, 202 to needs checking, median (model excluded)',
        value: summarize(scanMs).median,
        unit: 'ms',
      },
      {
        key: 'reports.scan_1p_ocr_max_ms',
        label: 'one scanned page, 202 to needs checking, max',
        value: summarize(scanMs).max,
        unit: 'ms',
      },
      {
        key: 'reports.upload_202_ms',
        label: 'upload of the 10-page PDF until its 202, median',
        value: summarize(uploadMs).median,
        unit: 'ms',
      },
      {
        key: 'reports.model_ms_total',
        label: 'stand-in model time subtracted, total',
        value: modelMs,
        unit: 'ms',
      },
    ];
    return {
      figures,
      notes: [
        `10-page PDF: ${(digital.length / 1024).toFixed(0)} KiB; scanned page: ${(scan.length / 1024).toFixed(0)} KiB, rendered at 300 dpi for tesseract`,
      ],
    };
  },
};
