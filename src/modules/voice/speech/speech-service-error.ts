/** A speech service refused or failed a request; the message names the engine, never the key. */
export class SpeechServiceError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SpeechServiceError';
  }
}

/** The error of an HTTP answer that is not 2xx: 401/403 say the key is the problem. */
export function httpStatusError(engine: string, status: number): SpeechServiceError {
  if (status === 401 || status === 403) {
    return new SpeechServiceError(`${engine} refused the API key (HTTP ${status})`);
  }
  return new SpeechServiceError(`${engine} answered HTTP ${status}`);
}
