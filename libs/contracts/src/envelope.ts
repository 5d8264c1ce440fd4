/** The common success envelope of the Switchboard API. */
export interface SuccessEnvelope<T> {
  message: string;
  status: true;
  code: number;
  /** Present (as an empty string) on the batch, phone and DNC responses. */
  errorMessage?: '';
  data?: T;
}

/** One field that failed validation. */
export interface FieldError {
  field: string;
  message: string;
}

/** Every error of the Switchboard API. */
export interface ErrorEnvelope {
  message: string;
  status: false;
  code: number;
  errorMessage: string;
  errors?: FieldError[];
  /** Correlates a 5xx answer with the server's log line. */
  requestId?: string;
}
