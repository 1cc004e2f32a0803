/**
 * The generated documents of the report tests; they live with the benchmarks (bench/ is compiled,
 * test/ is not), so the benchmark reads the very same lab panel.
 */
export * from '../../bench/lib/report-documents.js';
