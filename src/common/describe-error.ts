/** Class, SQLSTATE and throwing location of an unexpected error: enough to find it, nothing it carries. */
export function describeUnknown(exception: unknown): { error: string; code?: string; at?: string } {
  if (!(exception instanceof Error)) return { error: typeof exception };
  const code = (exception as { code?: unknown }).code;
  const at = exception.stack
    ?.split('\n')
    .find((line) => line.trimStart().startsWith('at '))
    ?.trim()
    .replace(/^at (?:.* \()?(.*?)\)?$/, '$1');
  return {
    error: exception.name,
    ...(typeof code === 'string' ? { code } : {}),
    ...(at ? { at } : {}),
  };
}
