import type { ImportErrorReason } from './contact-row';

/** The first rejected rows are listed; the counts always cover every row. */
export const MAX_REPORTED_ERRORS = 1_000;

export interface ImportRowError {
  /** 1-based position among the data rows (CSV: the header row and blank lines not counted). */
  row: number;
  phoneNumber?: string;
  reason: ImportErrorReason;
  /** The offending field of an `invalid_field` row. */
  field?: string;
}

/** A rejected row's error, without the keys its reason does not use. */
export function rowError(
  row: number,
  { reason, phoneNumber, field }: Omit<ImportRowError, 'row'>,
): ImportRowError {
  return {
    row,
    reason,
    ...(phoneNumber !== undefined ? { phoneNumber } : {}),
    ...(field !== undefined ? { field } : {}),
  };
}

export interface ImportReport {
  received: number;
  imported: number;
  rejected: number;
  errors: ImportRowError[];
  /** True when more rows were rejected than `errors` lists. */
  errorsTruncated: boolean;
}

/** Counts every row; keeps the first MAX_REPORTED_ERRORS errors, so a 1M-row answer stays small. */
export class ImportReportBuilder {
  private received = 0;
  private imported = 0;
  private rejected = 0;
  private readonly errors: ImportRowError[] = [];

  /** Whether another error would still be listed (callers may skip building it otherwise). */
  get listing(): boolean {
    return this.errors.length < MAX_REPORTED_ERRORS;
  }

  countReceived(rows: number): void {
    this.received += rows;
  }

  countImported(rows: number): void {
    this.imported += rows;
  }

  /** Errors must arrive in row order. */
  reject(error: ImportRowError): void {
    this.rejected += 1;
    if (this.listing) this.errors.push(error);
  }

  build(): ImportReport {
    return {
      received: this.received,
      imported: this.imported,
      rejected: this.rejected,
      errors: this.errors,
      errorsTruncated: this.rejected > this.errors.length,
    };
  }
}
