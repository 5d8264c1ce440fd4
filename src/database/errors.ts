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

/** query_canceled: the statement timeout (DB_STATEMENT_TIMEOUT_MS) ended the statement. */
export const isStatementTimeout = (error: unknown): boolean => sqlStateOf(error) === '57014';

/**
 * PostgreSQL errors caused by what the client sent (a value it cannot store, convert or
 * compile), with the message a client gets: never the SQL or the server's own text.
 */
const CLIENT_FAULTS: Record<string, string> = {
  '22P05': 'A text value contains a character that cannot be stored (NUL)',
  '22021': 'A text value contains a character that cannot be stored',
  '22001': 'A text value is too long',
  '22003': 'A number is out of range',
  '22008': 'A date or time is out of range',
  '22007': 'A date or time is malformed',
  '22P02': 'A value has the wrong form for its field',
  '22023': 'A parameter value is invalid',
  '22025': 'A text value has an invalid escape sequence',
  '2201B': 'A search is not a valid regular expression (or is too complex)',
  '54000': 'The request is too large or too complex',
  '54001': 'The request is too complex',
};

/** The client-facing message when a database error is the client's fault, else undefined. */
export function clientFaultMessage(error: unknown): string | undefined {
  const state = sqlStateOf(error);
  return state === undefined ? undefined : CLIENT_FAULTS[state];
}
