/** What describeUnknown tells of an error: never its message, which may quote SQL or data. */
export interface ErrorDescription {
  error: string;
  code?: string;
  at?: string;
  /** The error it wraps (a query builder wraps the driver's error, whose code is the SQLSTATE). */
  cause?: ErrorDescription;
}

/** Wrappers are rarely nested deeper; a cycle of causes must not loop. */
const MAX_CAUSES = 3;

/**
 * Class, SQLSTATE and throwing location of an unexpected error, and of the errors it wraps:
 * enough to find it, nothing it carries.
 */
export function describeUnknown(exception: unknown, depth = 0): ErrorDescription {
  if (!(exception instanceof Error)) return { error: typeof exception };
  const code = (exception as { code?: unknown }).code;
  const at = exception.stack
    ?.split('\n')
    .find((line) => line.trimStart().startsWith('at '))
    ?.trim()
    .replace(/^at (?:.* \()?(.*?)\)?$/, '$1');
  const cause = exception.cause;
  return {
    error: exception.name,
    ...(typeof code === 'string' ? { code } : {}),
    ...(at ? { at } : {}),
    ...(cause !== undefined && depth < MAX_CAUSES
      ? { cause: describeUnknown(cause, depth + 1) }
      : {}),
  };
}
