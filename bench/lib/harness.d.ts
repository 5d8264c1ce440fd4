// The types of harness.js for the TypeScript benches: `import * as h from './lib/harness'`.
import type { ChildProcess } from 'node:child_process';
import type { randomBytes as RandomBytes } from 'node:crypto';
import type { Client } from 'pg';

export interface Machine {
  date: string;
  cores: number;
  cpu: string;
  memoryGiB: number;
  node: string;
  postgres: string;
}

export interface BenchServer {
  child: ChildProcess;
  port: number;
  /** ms from spawn to the first 200 from /health/ready. */
  readyMs: number;
  exit: { code: number | null; signal: NodeJS.Signals | null } | null;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  output(): string;
}

export interface BenchDatabase {
  name: string;
  url: string;
}

export const ROOT: string;
export const DEFAULT_ENTRY: string;
export const DOC: string;
export const POLL_INTERVAL_MS: number;
export const randomBytes: typeof RandomBytes;

export function freePort(): Promise<number>;
export function serverEnv(extra: Record<string, string>): NodeJS.ProcessEnv;
export function startServer(env: Record<string, string>, entry?: string): Promise<BenchServer>;
export function stopServer(server: BenchServer): Promise<BenchServer['exit']>;
export function newDataDir(): string;
export function removeDataDir(dir: string): void;
export function withAdmin<T>(work: (client: Client) => Promise<T>): Promise<T>;
export function createDatabase(): Promise<BenchDatabase>;
export function dropDatabases(): Promise<void>;
export function startOnPostgres(
  extraEnv?: Record<string, string>,
): Promise<{ server: BenchServer; database: BenchDatabase; db: Client }>;
/** One JSON request; throws on a non-2xx answer. The body's type is the caller's claim. */
export function json<T = unknown>(
  port: number,
  method: string,
  route: string,
  body?: unknown,
  token?: string,
): Promise<T>;
export function stats(values: number[]): { median: number; min: number; max: number };
export function percentiles(values: number[]): {
  p50: number;
  p95: number;
  p99: number;
  max: number;
};
export function formatMs(value: number): string;
export function machine(): Promise<Machine>;
export function describeMachine(machine: Machine): string;
export function writeSection(heading: string, machine: Machine, text: string): Promise<void>;
export function cleanup(): Promise<void>;
export function installCleanup(): void;
export function run(main: () => Promise<void>): void;

/** A private redis-server on a free port (no persistence); stop it with killChild. */
export function startRedis(): Promise<{ child: ChildProcess; url: string }>;
/** SIGTERM, SIGKILL after 10 s; resolves once the child exited. */
export function killChild(child: ChildProcess): Promise<void>;
