import { Injectable, Logger } from '@nestjs/common';
import { SecretBox } from '../../common/crypto/secret-box';
import type { PhoneLogRow } from './call-records.schema';
import { PhoneLogsRepository } from './phone-logs.repository';

const LOG = new Logger('CollectedDigits');

/** What batch details show of each private digit. */
export const DIGIT_MASK = '•';

/** Binds a sealed entry to its organization, phone log and name: copied elsewhere, it won't open. */
const associatedData = (organizationId: string, phoneLogId: string, name: string) =>
  `organization:${organizationId}|phone_logs:${phoneLogId}|collected_digits:${name}`;

/**
 * The digits typed for collect_digits, on the phone log: as typed, or sealed at rest when the
 * agent keeps them private (they are opened only for call.completed, which alone carries them).
 */
@Injectable()
export class CollectedDigits {
  constructor(
    private readonly logs: PhoneLogsRepository,
    private readonly box: SecretBox,
  ) {}

  record(
    organizationId: string,
    phoneLogId: string,
    name: string,
    digits: string,
    privately: boolean,
  ): Promise<void> {
    if (!privately) return this.logs.recordDigits(organizationId, phoneLogId, name, { digits });
    const sealed = this.box.seal(digits, associatedData(organizationId, phoneLogId, name));
    return this.logs.recordDigits(organizationId, phoneLogId, name, {
      sealed: { length: digits.length, sealed },
    });
  }

  /**
   * A phone log's private entries, opened. One that does not open (tampered with, moved, or
   * sealed under another ENCRYPTION_KEY) is left out: the call's ending must not fail on it.
   */
  openPrivate(
    log: Pick<PhoneLogRow, 'organizationId' | 'id' | 'sealedDigits'>,
  ): Record<string, string> {
    const opened: Record<string, string> = {};
    for (const [name, { sealed }] of Object.entries(log.sealedDigits)) {
      try {
        opened[name] = this.box.open(sealed, associatedData(log.organizationId, log.id, name));
      } catch {
        LOG.warn(
          `Private digits "${name}" of call ${log.id} did not open: left out of call.completed`,
        );
      }
    }
    return opened;
  }
}
