import { inflateRawSync } from 'node:zlib';
import { ExtractionError } from './extraction-error';

const END_OF_CENTRAL_DIRECTORY = 0x06054b50;
const CENTRAL_DIRECTORY_ENTRY = 0x02014b50;
const LOCAL_FILE_HEADER = 0x04034b50;
/** The end record is 22 bytes plus a comment of at most 65,535. */
const END_SEARCH_BYTES = 22 + 0xffff;

export interface ZipLimits {
  /** Sum of the entries' uncompressed sizes. */
  maxTotalBytes: number;
  maxEntries: number;
}

interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  uncompressedSize: number;
  localHeaderOffset: number;
}

/**
 * Refuses a zip (a DOCX) that would inflate past the limits, before anything is inflated in
 * full: first from the sizes its central directory declares (a 1 MB file declaring 1 GiB is
 * refused after reading a few hundred bytes), then by inflating each entry with the output
 * capped at its declared size, so an archive that lies about its sizes is caught too, without
 * ever holding more than one entry's declared size. Zip64 archives are refused (a document
 * never needs them).
 */
export function assertZipWithinLimits(zip: Buffer, limits: ZipLimits): void {
  const entries = readCentralDirectory(zip, limits);
  const total = entries.reduce((sum, entry) => sum + entry.uncompressedSize, 0);
  if (total > limits.maxTotalBytes) {
    throw new ExtractionError(
      `The DOCX would expand to ${total} bytes, over the ${limits.maxTotalBytes}-byte limit (a zip bomb?)`,
    );
  }
  for (const entry of entries) checkEntry(zip, entry);
}

function readCentralDirectory(zip: Buffer, limits: ZipLimits): ZipEntry[] {
  const end = findEndRecord(zip);
  const count = zip.readUInt16LE(end + 10);
  const directorySize = zip.readUInt32LE(end + 12);
  const directoryOffset = zip.readUInt32LE(end + 16);
  if (count === 0xffff || directoryOffset === 0xffffffff) {
    throw new ExtractionError('Zip64 archives are not supported');
  }
  if (count > limits.maxEntries) {
    throw new ExtractionError(
      `The DOCX holds ${count} files, over the limit of ${limits.maxEntries}`,
    );
  }
  if (directoryOffset + directorySize > end) throw corrupt();
  const entries: ZipEntry[] = [];
  let at = directoryOffset;
  for (let index = 0; index < count; index += 1) {
    if (at + 46 > end || zip.readUInt32LE(at) !== CENTRAL_DIRECTORY_ENTRY) throw corrupt();
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    const entry: ZipEntry = {
      method: zip.readUInt16LE(at + 10),
      compressedSize: zip.readUInt32LE(at + 20),
      uncompressedSize: zip.readUInt32LE(at + 24),
      localHeaderOffset: zip.readUInt32LE(at + 42),
      name: zip.toString('utf8', at + 46, Math.min(at + 46 + nameLength, end)),
    };
    if (
      entry.compressedSize === 0xffffffff ||
      entry.uncompressedSize === 0xffffffff ||
      entry.localHeaderOffset === 0xffffffff
    ) {
      throw new ExtractionError('Zip64 archives are not supported');
    }
    entries.push(entry);
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

function findEndRecord(zip: Buffer): number {
  const stop = Math.max(0, zip.length - END_SEARCH_BYTES);
  for (let at = zip.length - 22; at >= stop; at -= 1) {
    if (zip.readUInt32LE(at) === END_OF_CENTRAL_DIRECTORY) return at;
  }
  throw corrupt();
}

/** Inflates the entry with its output capped at the declared size (+1 to see it pass). */
function checkEntry(zip: Buffer, entry: ZipEntry): void {
  const header = entry.localHeaderOffset;
  if (header + 30 > zip.length || zip.readUInt32LE(header) !== LOCAL_FILE_HEADER) throw corrupt();
  const start = header + 30 + zip.readUInt16LE(header + 26) + zip.readUInt16LE(header + 28);
  const data = zip.subarray(start, start + entry.compressedSize);
  if (data.length !== entry.compressedSize) throw corrupt();
  if (entry.method === 0) {
    if (entry.compressedSize !== entry.uncompressedSize) throw corrupt();
    return;
  }
  if (entry.method !== 8) throw new ExtractionError(`Unsupported zip compression in ${entry.name}`);
  let inflated: Buffer;
  try {
    inflated = inflateRawSync(data, { maxOutputLength: Math.max(1, entry.uncompressedSize + 1) });
  } catch (error) {
    if (error instanceof RangeError) {
      throw new ExtractionError(`${entry.name} inflates past its declared size (a zip bomb?)`);
    }
    throw corrupt();
  }
  if (inflated.length !== entry.uncompressedSize) {
    throw new ExtractionError(`${entry.name} does not inflate to its declared size`);
  }
}

const corrupt = () => new ExtractionError('The DOCX is not a readable zip archive');
