import { makeDocx, makeElf, makePdf, makeZip } from '../../../test/support/documents';
import { detectDocumentKind, looksLikeText, UnsupportedDocumentError } from './document-type';

const text = (value: string) => Buffer.from(value, 'utf8');

describe('detectDocumentKind', () => {
  it.each([
    ['a.pdf', makePdf(['hello']), 'pdf'],
    ['named-wrong.txt', makePdf(['bytes win']), 'pdf'],
    ['a.docx', makeDocx(['hello']), 'docx'],
    ['a.txt', text('plain words'), 'txt'],
    ['a.md', text('# Title\n\n*words*'), 'md'],
    ['a.markdown', text('words'), 'md'],
    ['a.csv', text('a,b\n1,2\n'), 'csv'],
    ['a.HTML', text('<p>Hi</p>'), 'html'],
    ['a.htm', text('<!doctype html><p>Hi</p>'), 'html'],
    ['bom.txt', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), text('ünïcode')]), 'txt'],
  ])('%s is %s', async (name, bytes, kind) => {
    await expect(detectDocumentKind(bytes, name, true)).resolves.toBe(kind);
  });

  const mz = Buffer.alloc(2048);
  mz.write('MZ', 0, 'latin1');
  it.each([
    ['an ELF named .pdf', 'x.pdf', makeElf(), /application\/x-elf/],
    ['a PE named .docx', 'setup.docx', mz, /application\/x-msdownload/],
    ['a zip that is no DOCX', 'a.docx', makeZip([{ name: 'a.txt', data: text('x') }]), /zip/],
    ['a PNG named .txt', 'a.txt', Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), /png/],
    ['text with an unknown extension', 'run.sh', text('#!/bin/sh\necho hi'), /does not end in/],
    ['text without extension', 'README', text('words'), /does not end in/],
    ['binary noise', 'a.txt', Buffer.from([1, 2, 3, 0, 255, 254]), /neither/],
    ['Latin-1 text', 'a.txt', Buffer.from('caf\xe9 cr\xe8me', 'latin1'), /neither/],
    ['an empty file', 'a.txt', Buffer.alloc(0), /empty/],
  ])('refuses %s', async (_case, name, bytes, message) => {
    const refusal = detectDocumentKind(bytes, name, true);
    await expect(refusal).rejects.toBeInstanceOf(UnsupportedDocumentError);
    await expect(refusal).rejects.toThrow(message);
  });
});

describe('looksLikeText', () => {
  it('accepts a head cut inside a multi-byte character only when the file goes on', () => {
    const cut = Buffer.from('naïve €', 'utf8').subarray(0, -1);
    expect(looksLikeText(cut, false)).toBe(true);
    expect(looksLikeText(cut, true)).toBe(false);
  });

  it('tolerates a few control characters, not many', () => {
    expect(looksLikeText(text(`${'a'.repeat(200)}\u001b[0m`), true)).toBe(true);
    expect(looksLikeText(text('\u0001\u0002\u0003abc'), true)).toBe(false);
  });
});
