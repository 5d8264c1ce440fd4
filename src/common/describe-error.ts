/** What describeUnknown tells of an error: never its message, which may quote SQL or data. */
export interface ErrorDescription {
  error: string;
  code?: string;
  /** The first frame with a source location (a file, or node:internal). */
  at?: string;
  /** The built-in the error came out of, when the top frame has no location (String.replace). */
  via?: string;
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
  const frames = (exception.stack ?? '')
    .split('\n')
    .map((line) => /^\s*at (?:(.*) \()?(.*?)\)?$/.exec(line))
    .filter((frame) => frame !== null)
    .map(([, name, location]) => ({ name, location }));
  const builtin = (location: string) => location === '<anonymous>' || location === 'native';
  const at = frames.find((frame) => !builtin(frame.location))?.location;
  const via = frames[0] && builtin(frames[0].location) ? frames[0].name : undefined;
  const cause = exception.cause;
  return {
    error: exception.name,
    ...(typeof code === 'string' ? { code } : {}),
    ...(at ? { at } : {}),
    ...(via ? { via } : {}),
    ...(cause !== undefined && depth < MAX_CAUSES
      ? { cause: describeUnknown(cause, depth + 1) }
      : {}),
  };
}
