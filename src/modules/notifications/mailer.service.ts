import { Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { PinoLogger } from 'nestjs-pino';
import { createTransport, type Transporter } from 'nodemailer';
import { type AppConfig, InjectConfig } from '../../config';

export interface MailMessage {
  to: string[];
  subject: string;
  /** Plain text body. */
  text: string;
}

/** Every wait on the SMTP server is bounded, so a stuck server never holds a send for minutes. */
const TIMEOUTS = {
  connectionTimeout: 10_000,
  greetingTimeout: 10_000,
  socketTimeout: 10_000,
  dnsTimeout: 10_000,
} as const;

/**
 * Sends e-mail through the SMTP server of `SMTP_URL` (smtp:// or smtps://, credentials in the
 * URL) from `MAIL_FROM`. Without `SMTP_URL` nothing is sent: the subject is logged instead.
 */
@Injectable()
export class Mailer implements OnApplicationShutdown {
  private readonly transport: Transporter | undefined;

  // PinoLogger rather than Nest's Logger: the line reaches the app's log stream in every mode.
  constructor(
    @InjectConfig() config: AppConfig,
    private readonly logger: PinoLogger,
  ) {
    this.logger.setContext(Mailer.name);
    this.transport = config.mail.smtpUrl
      ? createTransport(
          { url: boundedUrl(config.mail.smtpUrl), ...TIMEOUTS },
          { from: config.mail.from },
        )
      : undefined;
  }

  /** Resolves true when the server accepted the message, false when mail is not configured. */
  async send(message: MailMessage): Promise<boolean> {
    if (!this.transport) {
      this.logger.info({ subject: message.subject }, 'notification not sent (SMTP_URL unset)');
      return false;
    }
    await this.transport.sendMail({ to: message.to, subject: message.subject, text: message.text });
    return true;
  }

  onApplicationShutdown(): void {
    this.transport?.close();
  }
}

/** Timeouts given as URL query options would override ours; they are dropped. */
function boundedUrl(smtpUrl: string): string {
  const url = new URL(smtpUrl);
  for (const key of Object.keys(TIMEOUTS)) url.searchParams.delete(key);
  return url.toString();
}
