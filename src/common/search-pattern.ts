import { registerDecorator, type ValidationOptions } from 'class-validator';

/** Largest `{m,n}` count accepted in a search pattern. */
export const MAX_PATTERN_BOUND = 20;

export const SEARCH_PATTERN_RULES =
  'Backreferences (\\1 to \\9), a quantifier on a group that already holds one (as in ' +
  `(a+)+ or (.*x){3}) and counts above ${MAX_PATTERN_BOUND} in {m,n} answer 400: they can take ` +
  'the regular expression engine seconds per record.';

/**
 * Why a POSIX regular expression (PostgreSQL's ARE flavour) is too costly to run over every
 * record, or undefined when it is not. PostgreSQL's engine is linear for most patterns but
 * backtracks on backreferences and expands nested and counted repetitions: measured on 200
 * contacts, `(.{0,100}){0,100}x` took 8.5 s and five groups with backreferences 6.1 s (PGlite:
 * 11.6 s and 8.9 s, and PGlite cannot interrupt a statement). Syntax errors are left to the
 * database (invalid_regular_expression answers 400).
 */
export function costlyPatternReason(pattern: string): string | undefined {
  // One entry per open group: whether a quantifier occurs anywhere inside it.
  const groups: boolean[] = [false];
  // Whether the atom just read is a group with a quantifier inside.
  let afterQuantifiedGroup = false;
  for (let i = 0; i < pattern.length; i += 1) {
    const char = pattern[i];
    if (char === '\\') {
      if (/[1-9]/.test(pattern[i + 1] ?? '')) return 'backreferences are not supported';
      i += 1;
      afterQuantifiedGroup = false;
    } else if (char === '[') {
      i = bracketEnd(pattern, i);
      afterQuantifiedGroup = false;
    } else if (char === '(') {
      groups.push(false);
      // (?:…) and the like: the ? belongs to the group's opening, it quantifies nothing.
      if (pattern[i + 1] === '?') i += 1;
      afterQuantifiedGroup = false;
    } else if (char === ')') {
      const quantifiedInside = groups.length > 1 ? groups.pop()! : false;
      if (quantifiedInside) groups[groups.length - 1] = true;
      afterQuantifiedGroup = quantifiedInside;
    } else if (char === '*' || char === '+' || char === '?' || char === '{') {
      if (afterQuantifiedGroup) {
        return 'a quantifier on a group that holds a quantifier (nested repetition) is not supported';
      }
      if (char === '{') {
        const close = pattern.indexOf('}', i);
        const counts = pattern.slice(i + 1, close === -1 ? undefined : close).split(',');
        if (counts.some((count) => Number(count) > MAX_PATTERN_BOUND)) {
          return `counts in {m,n} above ${MAX_PATTERN_BOUND} are not supported`;
        }
        if (close !== -1) i = close;
      }
      groups[groups.length - 1] = true;
    } else {
      afterQuantifiedGroup = false;
    }
  }
  return undefined;
}

/** The index of the `]` that closes the bracket expression opened at `start`. */
function bracketEnd(pattern: string, start: number): number {
  let i = start + 1;
  if (pattern[i] === '^') i += 1;
  if (pattern[i] === ']') i += 1; // a leading ] is a literal
  for (; i < pattern.length; i += 1) {
    if (pattern[i] === '[' && /[:.=]/.test(pattern[i + 1] ?? '')) {
      // [:alpha:], [.x.], [=x=]
      const close = pattern.indexOf(`${pattern[i + 1]}]`, i + 2);
      if (close !== -1) i = close + 1;
    } else if (pattern[i] === ']') {
      return i;
    }
  }
  return pattern.length;
}

/** A search pattern that costlyPatternReason accepts. */
export function IsBoundedSearchPattern(options?: ValidationOptions): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isBoundedSearchPattern',
      target: target.constructor,
      propertyName: String(propertyName),
      options,
      validator: {
        validate: (value: unknown) =>
          typeof value !== 'string' || costlyPatternReason(value) === undefined,
        defaultMessage: (args) =>
          `${args?.property ?? 'search'}: ${costlyPatternReason(String(args?.value))}`,
      },
    });
}
