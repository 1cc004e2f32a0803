/**
 * A webhook body received in chunks: its memo key is the key of the same bytes joined, and a
 * byte-identical re-send is answered from its memo without the chunks ever being joined (joining
 * a 1.6 MB body into fresh memory was a third of a re-send's CPU time).
 */
import { afterEach, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { bodyMemoKey } from '../../src/ingest/hae/service.js';
import { type InlineBody, ingestInline } from '../../src/ingest/hae/webhook/ingest-body.js';
import { type Instance, openInstance } from '../../src/instance.js';
import { sandboxHome } from '../helpers/sandbox-home.js';
import { HAE_FILES, haeBytes } from './helpers.js';

const open: { inst: Instance; remove(): void }[] = [];
afterEach(async () => {
  for (const o of open.splice(0)) {
    await o.inst.close();
    o.remove();
  }
});

async function instance(): Promise<Instance> {
  const box = sandboxHome();
  const inst = await openInstance(loadConfig({ HEALTH_HOME: box.home, KLEBB_LOG_LEVEL: 'silent' }), {
    watch: false,
  });
  open.push({ inst, remove: box.remove });
  return inst;
}

/** `bytes` cut into chunks of `size`, as receiveBody hands them over; counts reads of `body`. */
function chunked(bytes: Buffer, size: number): InlineBody & { joins: number } {
  const chunks: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += size) chunks.push(bytes.subarray(at, at + size));
  return {
    bytes: bytes.length,
    chunks,
    joins: 0,
    get body() {
      this.joins++;
      return Buffer.concat(chunks);
    },
  };
}

it('a body in chunks has the memo key of its bytes joined', () => {
  const bytes = haeBytes(HAE_FILES[0]);
  expect(bodyMemoKey(chunked(bytes, 7_001).chunks).equals(bodyMemoKey(bytes))).toBe(true);
  expect(bodyMemoKey([]).equals(bodyMemoKey(Buffer.alloc(0)))).toBe(true);
});

it('a re-send in chunks is answered from its memo without joining them', async () => {
  const inst = await instance();
  const bytes = haeBytes(HAE_FILES[0]);
  const first = chunked(bytes, 65_536);
  const a = ingestInline(inst.hae, first);
  expect(a.ok).toBe(true);
  expect(first.joins).toBe(1);
  const samples = inst.db.prepare('SELECT count(*) FROM hae_samples').pluck().get();
  const again = chunked(bytes, 65_536);
  const b = ingestInline(inst.hae, again);
  expect(again.joins).toBe(0);
  expect(b).toEqual({ ...a, samples: { received: a.samples?.received, new: 0 } });
  expect(inst.db.prepare('SELECT count(*) FROM hae_samples').pluck().get()).toBe(samples);
});
