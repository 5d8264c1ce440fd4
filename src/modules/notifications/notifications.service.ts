import { type BeforeApplicationShutdown, Injectable } from '@nestjs/common';
import { PinoLogger } from 'nestjs-pino';
import { detach } from '../../common/detach';
import { UsersService } from '../users/users.service';
import { Mailer } from './mailer.service';

export interface Notice {
  /** Logged when mail is off or fails: never put personal data in it. */
  subject: string;
  text: string;
}

/**
 * E-mails the people of an organization (or one address). Sending is fire-and-forget for the caller: it never
 * throws, failures are logged by error code only (the address list and the body stay out of
 * logs), and shutdown waits for the sends still in flight.
 */
@Injectable()
export class NotificationsService implements BeforeApplicationShutdown {
  private readonly inFlight = new Set<Promise<void>>();

  constructor(
    private readonly users: UsersService,
    private readonly mailer: Mailer,
    private readonly logger: PinoLogger,
  ) {
    this.logger.setContext(NotificationsService.name);
  }

  /**
   * One message addressed to every admin of the organization together (To: all of them), so
   * they see who else was told. Resolves when the attempt is over, successful or not.
   */
  notifyAdmins(organizationId: string, notice: Notice): Promise<void> {
    return this.track(this.sendToAdmins(organizationId, notice), notice, { organizationId });
  }

  /** One message to one e-mail address that may have no organization to name in the logs. */
  notifyAddress(email: string, notice: Notice): Promise<void> {
    return this.track(this.mailer.send({ to: [email], ...notice }), notice, {});
  }

  // Before the database and the mail transport close: the sends in flight still need them.
  async beforeApplicationShutdown(): Promise<void> {
    await Promise.allSettled([...this.inFlight]);
  }

  private track(
    send: Promise<unknown>,
    notice: Notice,
    context: { organizationId?: string },
  ): Promise<void> {
    const attempt = send.then(
      () => undefined,
      (error: unknown) => {
        this.logger.warn(
          { subject: notice.subject, ...context, reason: reasonOf(error) },
          'notification failed',
        );
      },
    );
    this.inFlight.add(attempt);
    detach(
      attempt.finally(() => this.inFlight.delete(attempt)),
      { what: 'Notification bookkeeping', logger: this.logger },
    );
    return attempt;
  }

  private async sendToAdmins(organizationId: string, notice: Notice): Promise<void> {
    const admins = await this.users.listAdmins(organizationId);
    if (admins.length === 0) {
      this.logger.warn(
        { subject: notice.subject, organizationId },
        'notification has no recipient',
      );
      return;
    }
    await this.mailer.send({ to: admins.map((admin) => admin.email), ...notice });
  }
}

/** nodemailer's error code and SMTP reply code; its message can quote the recipients. */
function reasonOf(error: unknown): string {
  const { code, responseCode } = (error ?? {}) as { code?: unknown; responseCode?: unknown };
  const parts = [typeof code === 'string' ? code : 'unexpected error'];
  if (typeof responseCode === 'number') parts.push(`SMTP ${responseCode}`);
  return parts.join(', ');
}
