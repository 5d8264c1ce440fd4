import { Readable } from 'node:stream';
import { jsonArrayRows, MAX_JSON_ELEMENT_CHARS } from './json-array-rows';

/** Every element, the text cut into pieces of `size` bytes (UTF-8 characters split too). */
async function read(text: string, size = 3): Promise<unknown[]> {
  const bytes = Buffer.from(text);
  const pieces = Array.from({ length: Math.ceil(bytes.length / size) }, (_, i) =>
    bytes.subarray(i * size, (i + 1) * size),
  );
  const rows: unknown[] = [];
  for await (const batch of jsonArrayRows(Readable.from(pieces))) rows.push(...batch);
  return rows;
}

describe('jsonArrayRows', () => {
  const text =
    '\uFEFF [ {"phoneNumber": "+14155551234", "type": "a, \\"quoted\\" ] } [ type"},\n' +
    '  "+14155551235", 14155551236, {"nested": {"list": [1, [2]]}, "é": "ü😀"}, null ]\n ';
  const expected = [
    { phoneNumber: '+14155551234', type: 'a, "quoted" ] } [ type' },
    '+14155551235',
    14155551236,
    { nested: { list: [1, [2]] }, é: 'ü😀' },
    null,
  ];

  it.each([1, 2, 3, 7, 1024])(
    'reads every element, whatever the chunk size (%i bytes)',
    async (size) => {
      await expect(read(text, size)).resolves.toEqual(expected);
    },
  );

  it('reads an empty array as no rows', async () => {
    await expect(read('[ ]')).resolves.toEqual([]);
    await expect(read('{"data": []}')).resolves.toEqual([]);
  });

  it.each([1, 2, 5, 1024])(
    'reads the data array of a wrapper object, the export envelope (%i-byte chunks)',
    async (size) => {
      const wrapped =
        '{"message": "x [\\"data\\": [", "tags": ["data", [1]], "status": true,\n' +
        `  "data" : ${text.trim()} , "after": {"list": [1, 2]}}\n`;
      await expect(read(wrapped, size)).resolves.toEqual(expected);
    },
  );

  it.each([
    ['', 'The JSON file is empty'],
    ['  \n', 'The JSON file is empty'],
    ['{"phoneNumber": "+14155551234"}', 'must be an array'],
    ['{"data": {"entries": [1]}}', 'must be an array'],
    ['{"mydata": [1]}', 'must be an array'],
    ['phoneNumber\n+14155551234', 'must be an array'],
    ['[{"a": 1}', 'ends before the list is closed'],
    ['{"data": [1]', 'ends before the list is closed'],
    ['{"data": [1], "x": }', 'the object around the list cannot be parsed'],
    ['{"x", "data": [1]}', 'the object around the list cannot be parsed'],
    ['{"data": [1]} {}', 'text after the end of the list'],
    ['[{"a": 1},]', 'an entry is missing near entry 2'],
    ['[,{"a": 1}]', 'an entry is missing near entry 1'],
    ['[1,,2]', 'an entry is missing near entry 2'],
    ['[{"a": 1}] x', 'text after the end of the list'],
    ['[{"a": 1}][]', 'text after the end of the list'],
    ['[{"a": 1}, {a: 2}]', 'entry 2 cannot be parsed'],
    ['[{"a": "unterminated}]', 'ends before the list is closed'],
  ])('refuses %j with a 400', async (input, message) => {
    await expect(read(input)).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining(message),
    });
  });

  it('refuses an element longer than the bound without holding the rest', async () => {
    const long = `[{"phoneNumber": "+14155551234", "note": "${'x'.repeat(MAX_JSON_ELEMENT_CHARS)}"}]`;
    await expect(read(long, 64 * 1024)).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining('entry 1 is longer than'),
    });
  });
});
