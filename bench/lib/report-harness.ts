// The typed part of harness.js that pure-CPU TypeScript benches use to report: who ran where,
// percentiles, and rewriting one section of docs/benchmarks.md.
export interface Machine {
  date: string;
}

export interface ReportHarness {
  writeSection(heading: string, machine: Machine, text: string): Promise<void>;
  machine(): Promise<Machine>;
  describeMachine(machine: Machine): string;
  percentiles(values: number[]): { p50: number; p99: number; max: number };
}

// eslint-disable-next-line @typescript-eslint/no-require-imports
export const reportHarness = require('./harness') as ReportHarness;
