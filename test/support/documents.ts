import { constants, crc32, deflateRawSync } from 'node:zlib';

/** A one-page PDF (Helvetica) whose text is `lines`, with a correct xref table. */
export function makePdf(lines: string[]): Buffer {
  const escape = (text: string) => text.replace(/[\\()]/g, (char) => `\\${char}`);
  const content = `BT /F1 12 Tf 72 720 Td 14 TL ${lines.map((line) => `(${escape(line)}) Tj T*`).join(' ')} ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, index) => {
    offsets.push(Buffer.byteLength(out, 'latin1'));
    out += `${index + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out, 'latin1');
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  out += offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('');
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

export interface ZipEntryInput {
  name: string;
  data: Buffer;
  /** Deflated bytes given as they are (with `size` their inflated length): for zip bombs. */
  deflated?: { bytes: Buffer; size: number; crc: number };
}

/** A zip archive (deflate), written by hand so tests control every declared size. */
export function makeZip(entries: ZipEntryInput[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8');
    const compressed = entry.deflated?.bytes ?? deflateRawSync(entry.data);
    const size = entry.deflated?.size ?? entry.data.length;
    const crc = entry.deflated?.crc ?? crc32(entry.data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(crc >>> 0, 14);
    local.writeUInt32LE(compressed.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    // From "version needed" to the extra field's length, the local header's fields, 2 bytes on.
    local.copy(central, 6, 4, 30);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, compressed);
    centrals.push(central, name);
    offset += local.length + name.length + compressed.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

const CONTENT_TYPES =
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>';
const RELS =
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>';

const documentXml = (paragraphs: string[]) =>
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>' +
  paragraphs.map((text) => `<w:p><w:r><w:t>${text}</w:t></w:r></w:p>`).join('') +
  '</w:body></w:document>';

/** A minimal DOCX with one paragraph per item. */
export function makeDocx(paragraphs: string[], extra: ZipEntryInput[] = []): Buffer {
  return makeZip([
    { name: '[Content_Types].xml', data: Buffer.from(CONTENT_TYPES) },
    { name: '_rels/.rels', data: Buffer.from(RELS) },
    { name: 'word/document.xml', data: Buffer.from(documentXml(paragraphs)) },
    ...extra,
  ]);
}

/**
 * A valid DOCX of about 1 MB with an entry that inflates to 1 GiB of zeros (honestly declared):
 * 64 copies of one independently deflated 16 MiB block, so building it takes milliseconds.
 */
export function makeDocxBomb(): Buffer {
  const block = deflateRawSync(Buffer.alloc(16 * 1024 * 1024), {
    level: 9,
    finishFlush: constants.Z_FULL_FLUSH,
  });
  const bytes = Buffer.concat([...Array<Buffer>(64).fill(block), deflateRawSync(Buffer.alloc(0))]);
  // CRC of 1 GiB of zeros is not needed by the guard (it refuses before inflating).
  return makeDocx(
    ['Looks harmless'],
    [
      {
        name: 'word/media/zeros.bin',
        data: Buffer.alloc(0),
        deflated: { bytes, size: 1024 ** 3 - 1, crc: 0 },
      },
    ],
  );
}

/** The start of a 64-bit ELF executable, padded: what a renamed binary looks like. */
export function makeElf(bytes = 4096): Buffer {
  const elf = Buffer.alloc(bytes);
  Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]).copy(elf);
  elf.writeUInt16LE(2, 16);
  elf.writeUInt16LE(0x3e, 18);
  return elf;
}
