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
  beforeAll(() => jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined));
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
});
