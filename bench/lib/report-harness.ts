// The harness that pure-CPU TypeScript benches report with: who ran where, percentiles, and
// rewriting one section of docs/benchmarks.md (harness.js, typed by harness.d.ts).
import * as harness from './harness';

export type { Machine } from './harness';
export const reportHarness = harness;
