import { BadRequestException } from '@nestjs/common';

/** Longer elements are refused, like a CSV row past its bound; so is a longer wrapper object. */
export const MAX_JSON_ELEMENT_CHARS = 256 * 1024;

const OPEN_ARRAY = 0x5b; // [
const CLOSE_ARRAY = 0x5d; // ]
const OPEN_OBJECT = 0x7b; // {
const CLOSE_OBJECT = 0x7d; // }
const COMMA = 0x2c;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const BLANK = /^[\s\uFEFF]*$/;
/** The wrapper's text just before its `data` array opens: `{"message": …, "data": `. */
const BEFORE_DATA = /[{,]\s*"data"\s*:\s*$/;

const NOT_A_LIST =
  'The JSON file must be an array of entries ([{"phoneNumber": "+14155551234"}, ...]) or an ' +
  'object whose data is that array (the JSON export)';

const malformed = (problem: string) => new BadRequestException(`Malformed JSON: ${problem}`);

/**
 * Where the splitter is: before the first value; in a wrapper object before its data array;
 * in the array; in the wrapper after the array; past the end.
 */
type Place = 'start' | 'before' | 'array' | 'after' | 'done';

/**
 * Splits the text of a JSON array into its elements as they arrive, tracking only strings and
 * nesting, and parses each element on its own: memory holds one chunk and one element,
 * whatever the size of the file. The array may be the file, or the `data` of a wrapper object:
 * the wrapper is checked as JSON with its array replaced by null.
 */
class ArraySplitter {
  private place: Place = 'start';
  private inString = false;
  private escaped = false;
  /** Nesting inside the current element (the array itself not counted). */
  private depth = 0;
  /** Nesting inside the wrapper object (1 directly in it). */
  private outerDepth = 0;
  /** The wrapper's text, its array left out. */
  private wrapper = '';
  /** Text of the element read so far, from earlier chunks. */
  private carry = '';
  private elements = 0;
  /** A comma was read since the last element (a `]` then is a trailing comma). */
  private expectingElement = false;

  /** The elements that end in this chunk, parsed. */
  push(text: string): unknown[] {
    const parsed: unknown[] = [];
    let index = 0;
    let start = 0;
    for (; index < text.length && this.place !== 'done'; index += 1) {
      const code = text.charCodeAt(index);
      if (this.place === 'start') {
        if (code === OPEN_ARRAY) this.place = 'array';
        else if (code === OPEN_OBJECT) this.enterWrapper();
        else if (!BLANK.test(text[index])) throw new BadRequestException(NOT_A_LIST);
        start = index + 1;
        continue;
      }
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (code === BACKSLASH) this.escaped = true;
        else if (code === QUOTE) this.inString = false;
        continue;
      }
      if (code === QUOTE) {
        this.inString = true;
      } else if (this.place === 'array') {
        if (code === OPEN_ARRAY || code === OPEN_OBJECT) this.depth += 1;
        else if ((code === CLOSE_ARRAY || code === CLOSE_OBJECT) && this.depth > 0) this.depth -= 1;
        else if (this.depth === 0 && (code === COMMA || code === CLOSE_ARRAY)) {
          const element = this.carry + text.slice(start, index);
          this.carry = '';
          start = index + 1;
          const value = this.element(element, code === COMMA);
          if (value.found) parsed.push(value.parsed);
          if (code === CLOSE_ARRAY) this.leaveArray();
        }
      } else if (code === OPEN_ARRAY && this.place === 'before' && this.outerDepth === 1) {
        this.wrapper += text.slice(start, index);
        start = index + 1;
        if (BEFORE_DATA.test(this.wrapper)) this.place = 'array';
        else {
          this.wrapper += '[';
          this.outerDepth += 1;
        }
      } else if (code === OPEN_ARRAY || code === OPEN_OBJECT) {
        this.outerDepth += 1;
      } else if (code === CLOSE_ARRAY || code === CLOSE_OBJECT) {
        this.outerDepth -= 1;
        if (this.outerDepth === 0) {
          this.wrapper += text.slice(start, index + 1);
          start = index + 1;
          this.closeWrapper();
        }
      }
    }
    if (this.place === 'done') {
      if (!BLANK.test(text.slice(index))) throw malformed('text after the end of the list');
      return parsed;
    }
    if (this.place === 'array') this.carry += text.slice(start);
    else if (this.place !== 'start') this.wrapper += text.slice(start);
    if (this.carry.length > MAX_JSON_ELEMENT_CHARS) {
      throw malformed(
        `entry ${this.elements + 1} is longer than ${MAX_JSON_ELEMENT_CHARS} characters`,
      );
    }
    if (this.wrapper.length > MAX_JSON_ELEMENT_CHARS) {
      throw malformed(
        `the object around the list is longer than ${MAX_JSON_ELEMENT_CHARS} characters`,
      );
    }
    return parsed;
  }

  /** 400 unless the list was read to its end. */
  end(): void {
    if (this.place === 'start') throw new BadRequestException('The JSON file is empty');
    if (this.place !== 'done') throw malformed('the file ends before the list is closed');
  }

  private enterWrapper(): void {
    this.place = 'before';
    this.wrapper = '{';
    this.outerDepth = 1;
  }

  private leaveArray(): void {
    if (this.wrapper === '') {
      this.place = 'done';
      return;
    }
    this.place = 'after';
    this.wrapper += 'null';
  }

  /** The wrapper has closed: it must be an object (its data array read already). */
  private closeWrapper(): void {
    if (this.place === 'before') throw new BadRequestException(NOT_A_LIST);
    try {
      JSON.parse(this.wrapper);
    } catch {
      throw malformed('the object around the list cannot be parsed');
    }
    this.place = 'done';
  }

  /** An element's text between separators; `[]` is an empty array, `[1,]` and `[,1]` are not JSON. */
  private element(text: string, beforeComma: boolean): { found: boolean; parsed?: unknown } {
    const trimmed = text.trim();
    if (trimmed === '') {
      if (beforeComma || this.expectingElement || this.elements > 0) {
        throw malformed(`an entry is missing near entry ${this.elements + 1}`);
      }
      return { found: false };
    }
    this.expectingElement = beforeComma;
    this.elements += 1;
    if (trimmed.length > MAX_JSON_ELEMENT_CHARS) {
      throw malformed(`entry ${this.elements} is longer than ${MAX_JSON_ELEMENT_CHARS} characters`);
    }
    try {
      return { found: true, parsed: JSON.parse(trimmed) as unknown };
    } catch {
      throw malformed(`entry ${this.elements} cannot be parsed`);
    }
  }
}

/**
 * Streams the elements of a JSON file holding one array, or an object whose `data` is that
 * array (UTF-8, a BOM allowed), in batches of the elements that ended in each chunk read. Any
 * other file, or an element that does not parse, throws a 400; the file is never held whole.
 */
export async function* jsonArrayRows(
  source: AsyncIterable<Buffer | string>,
): AsyncGenerator<unknown[]> {
  const decoder = new TextDecoder('utf-8');
  const splitter = new ArraySplitter();
  for await (const chunk of source) {
    const text = typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
    const rows = splitter.push(text);
    if (rows.length > 0) yield rows;
  }
  const rest = splitter.push(decoder.decode());
  if (rest.length > 0) yield rest;
  splitter.end();
}
