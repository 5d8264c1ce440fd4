/** The text fields of a multipart form; a field sent more than once is an array. */
export type UploadFields = Record<string, string | string[]>;

/**
 * Text fields collected without a prototype: a field named `__proto__` or `constructor` is a
 * field like any other. Collected into `{}`, a form field named `__proto__` replaced the object's
 * prototype, and validating the form then wrote to Object.prototype for the whole process
 * (found by the fuzz gate: every later phone number parse failed).
 */
export function emptyFormFields(): UploadFields {
  return Object.create(null) as UploadFields;
}

export function addFormField(fields: UploadFields, name: string, value: string): void {
  const previous = fields[name];
  fields[name] = previous === undefined ? value : [previous, value].flat();
}
