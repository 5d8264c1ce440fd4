import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  /** MAIL FROM and RCPT TO of the SMTP envelope. */
  envelope: { from: string | undefined; to: string[] };
  /** The message as received, headers and encoded body. */
  raw: string;
  /** Unfolded headers, names lower-cased. */
  headers: Record<string, string>;
  subject: string;
  /** The decoded text body. */
  text: string;
}

/** A real SMTP server on 127.0.0.1 (random port) that keeps every message it accepts. */
export class TestSmtpServer {
  readonly messages: ReceivedMail[] = [];
  /** When true, every recipient is refused with 550 (the client's send fails). */
  rejectRecipients = false;
  private readonly server: SMTPServer;
  private port = 0;

  private constructor() {
    this.server = new SMTPServer({
      authOptional: true,
      // Plain SMTP: the client would otherwise upgrade to TLS against a self-signed certificate.
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onRcptTo: (_address, _session, callback) => {
        if (!this.rejectRecipients) return callback();
        callback(Object.assign(new Error('Mailbox unavailable'), { responseCode: 550 }));
      },
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          const { mailFrom, rcptTo } = session.envelope;
          this.messages.push(
            parseMail(Buffer.concat(chunks).toString('utf8'), {
              from: mailFrom ? mailFrom.address : undefined,
              to: rcptTo.map((rcpt) => rcpt.address),
            }),
          );
          callback();
        });
      },
    });
  }

  static async start(): Promise<TestSmtpServer> {
    const smtp = new TestSmtpServer();
    await new Promise<void>((resolve, reject) => {
      smtp.server.once('error', reject);
      smtp.server.listen(0, '127.0.0.1', () => resolve());
    });
    smtp.port = (smtp.server.server.address() as AddressInfo).port;
    return smtp;
  }

  /** The SMTP_URL that reaches this server. */
  get url(): string {
    return `smtp://127.0.0.1:${this.port}`;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

function parseMail(raw: string, envelope: ReceivedMail['envelope']): ReceivedMail {
  const split = raw.indexOf('\r\n\r\n');
  const head = raw.slice(0, split).replace(/\r\n[ \t]+/g, ' ');
  const headers: Record<string, string> = {};
  for (const line of head.split('\r\n')) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const body = raw.slice(split + 4);
  const encoding = (headers['content-transfer-encoding'] ?? '7bit').toLowerCase();
  return {
    envelope,
    raw,
    headers,
    subject: headers.subject ?? '',
    text: decodeBody(body, encoding),
  };
}

function decodeBody(body: string, encoding: string): string {
  if (encoding === 'base64') return Buffer.from(body, 'base64').toString('utf8');
  if (encoding !== 'quoted-printable') return body.replace(/\r\n/g, '\n');
  const unwrapped = body.replace(/=\r\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < unwrapped.length; i += 1) {
    const hex = unwrapped.slice(i + 1, i + 3);
    if (unwrapped[i] === '=' && /^[0-9A-F]{2}$/i.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(unwrapped.charCodeAt(i));
    }
  }
  return Buffer.from(bytes).toString('utf8').replace(/\r\n/g, '\n');
}
