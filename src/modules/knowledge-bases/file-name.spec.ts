import {
  FALLBACK_FILE_NAME,
  MAX_FILE_NAME_LENGTH,
  extensionOf,
  sanitizeFileName,
} from './file-name';

describe('sanitizeFileName', () => {
  it.each([
    ['pricing.pdf', 'pricing.pdf'],
    ['../../etc/passwd', 'passwd'],
    ['..\\..\\windows\\system32\\cmd.exe', 'cmd.exe'],
    ['/abs/path/notes.md', 'notes.md'],
    ['..', FALLBACK_FILE_NAME],
    ['.', FALLBACK_FILE_NAME],
    ['', FALLBACK_FILE_NAME],
    [undefined, FALLBACK_FILE_NAME],
    ['.hidden.txt', 'hidden.txt'],
    ['a\u0000b\nc.txt', 'abc.txt'],
    ['  two   words .txt ', 'two words .txt'],
    ['report\u202etxt.exe', 'reporttxt.exe'],
    ['cafe\u0301.md', 'café.md'],
    ['dir/', FALLBACK_FILE_NAME],
  ])('%j → %j', (raw, expected) => {
    expect(sanitizeFileName(raw)).toBe(expected);
  });

  it('cuts long names to the limit and keeps the extension', () => {
    const name = sanitizeFileName(`${'x'.repeat(500)}.docx`);
    expect([...name]).toHaveLength(MAX_FILE_NAME_LENGTH);
    expect(name.endsWith('.docx')).toBe(true);
  });

  it('never yields a path separator or a name that walks up', () => {
    for (const raw of ['a/../b', '..%2f..', 'x\\..\\..', '/..', '\\']) {
      const name = sanitizeFileName(raw);
      expect(name).not.toMatch(/[/\\]/);
      expect(name).not.toMatch(/^\.\.?$/);
    }
  });
});

describe('extensionOf', () => {
  it.each([
    ['a.PDF', 'pdf'],
    ['archive.tar.gz', 'gz'],
    ['noext', ''],
    ['trailing.', ''],
    ['weird.ex e', ''],
  ])('%s → %j', (name, expected) => {
    expect(extensionOf(name)).toBe(expected);
  });
});
