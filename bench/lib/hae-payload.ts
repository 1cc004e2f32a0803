/**
 * A generated Health Auto Export payload of a given size, shaped like a real minute-level export
 * of the app (version 2, January 2023):
 * one block per metric covering every day, pretty-printed with `" : "` like iOS, sources with
 * U+2019 and U+00A0. Per day: heart rate every minute (Min/Avg/Max), steps, distance and active
 * energy every minute from 07:00 to 23:00, basal energy (kJ) every minute, stand time every 5
 * minutes, one weight (lb), one aggregated sleep night. Written to disk as it is generated (the
 * generator never holds the payload).
 */
import fs from 'node:fs';

const WATCH = 'User’s Apple\u00a0Watch';
const PHONE = 'User’s iPhone';
const DAY_MS = 86_400_000;

/** Local timestamp `YYYY-MM-DD HH:MM:SS -0500` of minute `m` of day `d` after 2024-01-01. */
function stamp(d: number, m: number): string {
  const t = new Date(Date.UTC(2024, 0, 1) + d * DAY_MS + m * 60_000);
  return `${t.toISOString().slice(0, 10)} ${t.toISOString().slice(11, 19)} -0500`;
}

interface Block {
  name: string;
  units: string;
  /** The points of day `d` as JSON object texts. */
  points(d: number): string[];
}

/** A tiny deterministic pseudo-random sequence (same payload on every run). */
function rng(seed: number): () => number {
  let x = seed;
  return () => {
    x = (x * 1103515245 + 12345) % 2 ** 31;
    return x / 2 ** 31;
  };
}

const obj = (fields: Record<string, unknown>) =>
  `{\n          ${Object.entries(fields)
    .map(([k, v]) => `${JSON.stringify(k)} : ${JSON.stringify(v)}`)
    .join(',\n          ')}\n        }`;

function blocks(): Block[] {
  const r = rng(7);
  const awake = (m: number) => m >= 7 * 60 && m < 23 * 60;
  return [
    {
      name: 'heart_rate',
      units: 'count/min',
      points: (d) =>
        Array.from({ length: 1440 }, (_, m) => {
          const v = Math.round(55 + 40 * r());
          return obj({ Min: v, Avg: v, Max: v, date: stamp(d, m), source: WATCH });
        }),
    },
    {
      name: 'step_count',
      units: 'count',
      points: (d) =>
        Array.from({ length: 1440 }, (_, m) => m)
          .filter(awake)
          .map((m) => obj({ qty: Math.round(120 * r()), date: stamp(d, m), source: `${WATCH}|${PHONE}` })),
    },
    {
      name: 'walking_running_distance',
      units: 'km',
      points: (d) =>
        Array.from({ length: 1440 }, (_, m) => m)
          .filter(awake)
          .map((m) => obj({ qty: 0.09 * r(), date: stamp(d, m), source: `${WATCH}|${PHONE}` })),
    },
    {
      name: 'active_energy',
      units: 'kcal',
      points: (d) =>
        Array.from({ length: 1440 }, (_, m) => m)
          .filter(awake)
          .map((m) => obj({ qty: 4 * r(), date: stamp(d, m), source: WATCH })),
    },
    {
      name: 'basal_energy_burned',
      units: 'kJ',
      points: (d) =>
        Array.from({ length: 1440 }, (_, m) => obj({ qty: 4.2 + r(), date: stamp(d, m), source: WATCH })),
    },
    {
      name: 'apple_stand_time',
      units: 'min',
      points: (d) =>
        Array.from({ length: 288 }, (_, i) => i * 5)
          .filter(awake)
          .map((m) => obj({ qty: Math.round(5 * r()), date: stamp(d, m), source: WATCH })),
    },
    {
      name: 'weight_body_mass',
      units: 'lb',
      points: (d) => [obj({ qty: 170 + 5 * r(), date: stamp(d, 7 * 60 + 5), source: 'Withings' })],
    },
    {
      name: 'sleep_analysis',
      units: 'hr',
      points: (d) => [
        obj({
          date: stamp(d, 0).replace(/ .*/, ' 00:00:00 -0500'),
          sleepStart: stamp(d - 1, 23 * 60),
          sleepEnd: stamp(d, 6 * 60 + 30),
          inBedStart: stamp(d - 1, 22 * 60 + 50),
          inBedEnd: stamp(d, 6 * 60 + 40),
          core: 4 + r(),
          deep: 1 + 0.5 * r(),
          rem: 1.5 * r(),
          awake: 0.3,
          asleep: 0,
          inBed: 7.8,
          source: WATCH,
        }),
      ],
    },
  ];
}

/** Bytes one generated day takes (measured on day 0). */
function bytesPerDay(): number {
  return blocks().reduce((n, b) => n + b.points(0).reduce((m, p) => m + Buffer.byteLength(p) + 2, 0), 0);
}

/**
 * Writes a payload of at most `targetBytes` (whole days: a little less) to `file`.
 * @returns the bytes written, the days covered and the number of points.
 */
export async function writeHaePayload(
  file: string,
  targetBytes: number,
): Promise<{ bytes: number; days: number; points: number }> {
  let days = Math.max(1, Math.floor(targetBytes / bytesPerDay()));
  for (;;) {
    const r = await writeDays(file, days);
    if (r.bytes <= targetBytes || days === 1) return r;
    days = Math.max(1, Math.floor((days * targetBytes) / r.bytes) - 1);
  }
}

/** A file written piece by piece with back-pressure; `end` closes it and gives the bytes written. */
function fileWriter(file: string): { write(s: string): Promise<void>; end(): Promise<number> } {
  const out = fs.createWriteStream(file);
  let bytes = 0;
  return {
    async write(s) {
      bytes += Buffer.byteLength(s);
      if (!out.write(s)) await new Promise<void>((r) => out.once('drain', () => r()));
    },
    end: () =>
      new Promise<number>((resolve, reject) =>
        out.end((err?: Error | null) => (err ? reject(err) : resolve(bytes))),
      ),
  };
}

async function writeDays(
  file: string,
  days: number,
): Promise<{ bytes: number; days: number; points: number }> {
  const { write, end } = fileWriter(file);
  let points = 0;
  await write('{\n  "data" : {\n    "metrics" : [\n');
  const all = blocks();
  for (let b = 0; b < all.length; b++) {
    const block = all[b];
    await write(
      `      {\n        "name" : ${JSON.stringify(block.name)},\n        "units" : ${JSON.stringify(block.units)},\n        "data" : [\n`,
    );
    let first = true;
    for (let d = 0; d < days; d++) {
      const pts = block.points(d);
      points += pts.length;
      await write(`${first ? '' : ',\n'}        ${pts.join(',\n        ')}`);
      first = false;
    }
    await write(`\n        ]\n      }${b < all.length - 1 ? ',' : ''}\n`);
  }
  await write('    ],\n    "workouts" : [\n\n    ]\n  }\n}\n');
  return { bytes: await end(), days, points };
}

/**
 * Writes a minute-level push of heart rate (Min/Avg/Max) and steps, one point of each every minute
 * of `days` days from 2025-06-01 (+0530), in the layout a person's phone sent when it pushed 73
 * days at once (21.8 MB, 210 240 points): one block per metric, `", "` and `": "` separators, one
 * source for all points. Deterministic; written as generated.
 * @returns the bytes written and the number of points.
 */
export async function writeMinutePush(
  file: string,
  days: number,
): Promise<{ bytes: number; points: number }> {
  const { write, end } = fileWriter(file);
  let points = 0;
  const source = 'Priya’s Apple Watch|iPhone';
  const r = rng(11);
  const minute = (d: number, m: number) => {
    const t = new Date(Date.UTC(2025, 5, 1) + d * DAY_MS + m * 60_000).toISOString();
    return `${t.slice(0, 10)} ${t.slice(11, 19)} +0530`;
  };
  const metrics: [string, string, () => Record<string, number>][] = [
    ['heart_rate', 'count/min', () => ({ Min: 60, Avg: Math.round(60 + 70 * r()), Max: 130 })],
    ['step_count', 'count', () => ({ qty: Math.round(120 * r()) })],
  ];
  await write('{"data": {"metrics": [');
  for (let b = 0; b < metrics.length; b++) {
    const [name, units, values] = metrics[b];
    await write(`${b ? ', ' : ''}{"name": "${name}", "units": "${units}", "data": [`);
    for (let d = 0; d < days; d++) {
      const day: string[] = [];
      for (let m = 0; m < 1440; m++) {
        const fields = Object.entries(values())
          .map(([k, v]) => `"${k}": ${v}`)
          .join(', ');
        day.push(`{"date": "${minute(d, m)}", ${fields}, "source": "${source}"}`);
      }
      points += day.length;
      await write(`${d ? ', ' : ''}${day.join(', ')}`);
    }
    await write(']}');
  }
  await write(']}}');
  return { bytes: await end(), points };
}
