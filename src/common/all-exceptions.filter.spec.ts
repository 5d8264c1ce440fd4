import type { ArgumentsHost } from '@nestjs/common';
import { BadRequestException, NotFoundException } from '@nestjs/common';
import { Logger } from '@nestjs/common';
import { AllExceptionsFilter } from './all-exceptions.filter';
import { describeUnknown } from './describe-error';
import { TooManyRequestsException } from './too-many-requests.exception';

function render(exception: unknown) {
  const sent: { status?: number; body?: unknown; headers: Record<string, string> } = {
    headers: {},
  };
  const response = {
    headersSent: false,
    status(code: number) {
      sent.status = code;
      return this;
    },
    json(body: unknown) {
      sent.body = body;
    },
    setHeader(name: string, value: string) {
      sent.headers[name] = value;
    },
  };
  const host = {
    switchToHttp: () => ({ getRequest: () => ({ id: 'req-1' }), getResponse: () => response }),
  } as unknown as ArgumentsHost;
  new AllExceptionsFilter().catch(exception, host);
  return sent;
}

describe('AllExceptionsFilter', () => {
  beforeAll(() => {
    jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
  });
  afterAll(() => jest.restoreAllMocks());

  it('renders HTTP errors in the envelope with their status', () => {
    expect(render(new NotFoundException('Batch not found'))).toMatchObject({
      status: 404,
      body: { message: 'Not found', status: false, code: 404, errorMessage: 'Batch not found' },
    });
    expect(render(new BadRequestException(['a is bad', 'b is bad'])).body).toMatchObject({
      errorMessage: 'a is bad; b is bad',
    });
  });

  it('logs an unknown error by class, code and location only', () => {
    const error = Object.assign(new Error("insert into users values ('secret@example.com')"), {
      code: '23505',
    });
    const described = describeUnknown(error);
    expect(described).toEqual({
      error: 'Error',
      code: '23505',
      at: expect.stringMatching(/all-exceptions\.filter\.spec\.ts:\d+:\d+$/),
    });
    expect(JSON.stringify(described)).not.toMatch(/secret|insert/);
  });

  it('answers unknown errors with a bare 500 and the request id, never their text', () => {
    const error = new Error(
      'duplicate key value violates constraint "users_email_key" SELECT * FROM users',
    );
    const sent = render(error);
    expect(sent.status).toBe(500);
    expect(sent.body).toEqual({
      message: 'Internal server error',
      status: false,
      code: 500,
      errorMessage: 'An unexpected error occurred',
      requestId: 'req-1',
    });
  });

  it('adds Retry-After to 429s', () => {
    const sent = render(new TooManyRequestsException('slow down', 42));
    expect(sent.status).toBe(429);
    expect(sent.headers['Retry-After']).toBe('42');
  });

  it('maps body-parser errors by type, not by their message', () => {
    const parserError = Object.assign(new Error('Unexpected token } in JSON at position 7'), {
      type: 'entity.parse.failed',
      status: 400,
      expose: true,
    });
    expect(render(parserError).body).toMatchObject({
      code: 400,
      errorMessage: 'Malformed JSON body',
    });
  });

  // As drizzle wraps a driver error: the SQLSTATE is on the cause.
  const databaseError = (code: string) =>
    Object.assign(new Error('Failed query: SELECT * FROM phone_logs WHERE x = $1'), {
      cause: Object.assign(new Error('invalid byte sequence for encoding "UTF8": 0x00'), { code }),
    });

  it.each([
    ['22P05', 'A text value contains a character that cannot be stored (NUL)'],
    ['22021', 'A text value contains a character that cannot be stored'],
    ['22003', 'A number is out of range'],
    ['22008', 'A date or time is out of range'],
    ['22007', 'A date or time is malformed'],
    ['22P02', 'A value has the wrong form for its field'],
    ['2201B', 'A search is not a valid regular expression (or is too complex)'],
    ['22023', 'A parameter value is invalid'],
    ['54000', 'The request is too large or too complex'],
  ])('answers database error %s (the client sent it) 400 without the SQL', (code, message) => {
    const sent = render(databaseError(code));
    expect(sent.status).toBe(400);
    expect(sent.body).toEqual({
      message: 'Bad request',
      status: false,
      code: 400,
      errorMessage: message,
    });
  });

  it('answers a statement timeout (57014) 408 asking to narrow the search', () => {
    const sent = render(databaseError('57014'));
    expect(sent.status).toBe(408);
    expect(sent.body).toEqual({
      message: 'Request timeout',
      status: false,
      code: 408,
      errorMessage: expect.stringMatching(/took too long; narrow it/),
    });
  });

  it('still answers 500 for database errors that are the server’s own', () => {
    for (const code of ['23505', '42P01', '53300', '08006']) {
      expect(render(databaseError(code)).status).toBe(500);
    }
  });
});
