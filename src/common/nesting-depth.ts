/**
 * How deep a request's JSON may nest. The deepest body of the API is three levels (a contact
 * row inside `contacts`); validators and transformers recurse, so a body nested thousands of
 * levels deep would exhaust the stack (a 500) before any rule ran.
 */
export const MAX_NESTING_DEPTH = 32;

/** True when `value` nests objects or arrays deeper than `max` levels; walks without recursion. */
export function nestsDeeperThan(value: unknown, max: number): boolean {
  const pending: Array<{ item: unknown; depth: number }> = [{ item: value, depth: 0 }];
  while (pending.length > 0) {
    const { item, depth } = pending.pop()!;
    if (typeof item !== 'object' || item === null) continue;
    if (depth >= max) return true;
    for (const child of Object.values(item)) pending.push({ item: child, depth: depth + 1 });
  }
  return false;
}
