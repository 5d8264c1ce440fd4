/** The SQLSTATE of a PostgreSQL error on either driver, also when wrapped by Drizzle. */
export function sqlStateOf(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; current && depth < 5; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** unique_violation */
export const isUniqueViolation = (error: unknown): boolean => sqlStateOf(error) === '23505';

/** invalid_regular_expression: a user-supplied search pattern PostgreSQL cannot compile. */
export const isInvalidRegex = (error: unknown): boolean => sqlStateOf(error) === '2201B';
