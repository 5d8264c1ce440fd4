import { setFlagsFromString } from 'node:v8';

/**
 * After each full GC, V8 lets the old generation grow to twice what survived it. V8's own
 * factor, worked out from GC and allocation speed, stayed near 1.1 under live calls: with ~93 MB
 * live and every call's audio buffers surviving a few scavenges, a full GC ran every second, its
 * marking took a core from the calls and its last pause held every call's frames for 6–20 ms. At
 * 100 calls this took the turn latency p95 from 77 ms to 30–52 ms, 30–37 in five runs of seven
 * (docs/benchmarks.md, "Voice runtime: live calls"), for an old generation at most twice its
 * live size.
 */
export const HEAP_GROWTH_FLAG = '--heap-growing-percent=100';

/** Read at every full GC, so setting it before the app loads covers the whole run. */
export function relaxHeapGrowth(): void {
  setFlagsFromString(HEAP_GROWTH_FLAG);
}
