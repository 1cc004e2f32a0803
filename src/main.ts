/**
 * Process entry (`node dist/server/main.js`, the bundle of server.rolldown.config.ts). Sets V8 up for a small resident footprint before a
 * single module of the server is loaded, then starts it (serve.ts).
 *
 * By default V8 lets the young generation grow to 2 x 16 MB as soon as allocation is brisk, and
 * loading the server's modules is: those pages then stay resident for the life of the process,
 * about 30 MB of an idle instance's RSS. A growth factor of 1 keeps it at its initial size; the
 * objects of a request die young either way, and scavenging a small space is quick. The flag has
 * to be set before the modules are compiled, hence the dynamic import.
 */
import v8 from 'node:v8';
import { keepYoungGenerationSmall } from './young-generation.js';

// (a large ingestion lets it grow while it runs: young-generation.ts)
keepYoungGenerationSmall();
// lets src/http/memory-release.ts collect the heap once after a large request (not a global gc())
v8.setFlagsFromString('--expose-gc');
await import('./serve.js');
