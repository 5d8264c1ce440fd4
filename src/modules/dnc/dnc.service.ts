import { BadRequestException, Injectable, Logger, NotFoundException } from '@nestjs/common';
import { detach } from '../../common/detach';
import type { Principal } from '../../auth/access';
import { describeUnknown } from '../../common/describe-error';
import { toPagination } from '../../common/page.query';
import { maskPhoneNumber, toE164 } from '../../common/phone-number';
import { Database, isUniqueViolation } from '../../database';
import { BatchAccessService } from '../batches/batch-access.service';
import { IdempotencyService } from '../idempotency/idempotency.service';
import { NotificationsService } from '../notifications/notifications.service';
import { UsersService } from '../users/users.service';
import { type DncAddedFacts, dncAddedNotice } from './dnc-notice';
import { DncRepository } from './dnc.repository';
import type { AddDncDto } from './dto/add-dnc.dto';
import { toDncEntryDto } from './dnc-entry.mapper';
import type { DncCheckDto, DncListDto } from './dto/dnc-entry.dto';
import type { CheckDncQuery, ListDncQuery } from './dto/dnc-queries';

const DUPLICATE = "Number already in the organization's do-not-call list";
const INVALID_NUMBER = 'Invalid phoneNumber: expected a number with its country code';
const OPERATION = 'dncAdd';
/** The `type` of entries the callee asked for on a call. */
export const OPT_OUT_TYPE = 'opt_out';

/** The call on which a callee opted out. */
export interface OptOutCall {
  phoneNumber: string;
  batchId: string;
  callRecordId: string;
  phoneLogId: string;
  requestUuid: string;
  recordingUrl?: string | null;
  transcript?: string | null;
}

@Injectable()
export class DncService {
  private readonly logger = new Logger(DncService.name);

  constructor(
    private readonly database: Database,
    private readonly dnc: DncRepository,
    private readonly access: BatchAccessService,
    private readonly idempotency: IdempotencyService,
    private readonly users: UsersService,
    private readonly notifications: NotificationsService,
  ) {}

  /**
   * Lists the number of a call of a batch the caller may reach, and in the same transaction
   * withdraws its pending calls from every active or paused batch. With an Idempotency-Key, a
   * retry replays the first answer instead of finding the number listed. The admins are
   * e-mailed after the commit; that e-mail never fails the request.
   */
  async add(principal: Principal, dto: AddDncDto, key: string | undefined): Promise<void> {
    await this.idempotency
      .run(principal.organizationId, OPERATION, key, dto, () => this.insert(principal, dto))
      .catch((error: unknown) => {
        if (isUniqueViolation(error)) throw new BadRequestException(DUPLICATE);
        throw error;
      });
  }

  /** The entry and the withdrawn calls; runs in IdempotencyService's transaction. */
  private async insert(principal: Principal, dto: AddDncDto): Promise<void> {
    const { organizationId } = principal;
    const phoneNumber = toE164(dto.phoneNumber);
    if (!phoneNumber) throw new BadRequestException(INVALID_NUMBER);
    const batch = await this.access.findAccessible(principal, dto.batchId);
    if (!(await this.users.findById(organizationId, batch.userId)))
      throw new NotFoundException('User of the batch not found');
    const call = await this.dnc.findCall(organizationId, batch.id, dto.requestUUID.toLowerCase());
    if (!call) throw new NotFoundException('Call record not found for this batch and requestUUID');
    if (call.phoneNumber !== phoneNumber) {
      throw new BadRequestException(
        'phoneNumber does not match the number of the call record identified by requestUUID',
      );
    }

    await this.dnc.lockDialing(organizationId);
    const entry = await this.dnc.create(organizationId, {
      phoneNumber,
      type: dto.type?.trim() || null,
      batchId: batch.id,
      callRecordId: call.callRecordId,
      phoneLogId: call.phoneLogId,
      requestUuid: call.requestUuid,
      recordingUrl: call.recordingUrl,
      transcript: call.transcript,
      createdByUserId: principal.userId,
    });
    if (!entry) throw new BadRequestException(DUPLICATE);
    const withdrawnCalls = await this.dnc.markPendingAsDoNotCall(organizationId, [phoneNumber]);
    this.database.afterCommit(() => {
      this.logger.log(
        `Added ${maskPhoneNumber(phoneNumber)} to the DNC list; ${withdrawnCalls} pending call(s) withdrawn`,
      );
      // Not awaited: the answer does not wait for the SMTP server (the send is bounded and logged).
      detach(
        () =>
          this.notifyAdded(principal, {
            phoneNumber,
            batchName: batch.batchName,
            type: entry.type,
            addedAt: entry.createdAt,
            withdrawnCalls,
          }),
        { what: 'DNC notice', logger: this.logger },
      );
    });
  }

  /**
   * A callee who asked on a call not to be called again (the agent's tool or the post-call
   * analysis): the number is listed and its pending calls withdrawn in the caller's transaction.
   * False when it was already listed.
   */
  async recordOptOut(organizationId: string, call: OptOutCall): Promise<boolean> {
    return this.database.transaction(async () => {
      await this.dnc.lockDialing(organizationId);
      const entry = await this.dnc.create(organizationId, {
        ...call,
        type: OPT_OUT_TYPE,
        recordingUrl: call.recordingUrl ?? null,
        transcript: call.transcript ?? null,
        createdByUserId: null,
      });
      if (!entry) return false;
      const withdrawnCalls = await this.dnc.markPendingAsDoNotCall(organizationId, [
        call.phoneNumber,
      ]);
      this.database.afterCommit(() => {
        this.logger.log(
          `Callee ${maskPhoneNumber(call.phoneNumber)} opted out on a call; ${withdrawnCalls} pending call(s) withdrawn`,
        );
      });
      return true;
    });
  }

  async list(organizationId: string, query: ListDncQuery): Promise<DncListDto> {
    const { rows, total } = await this.dnc.list(organizationId, query);
    return {
      entries: rows.map(toDncEntryDto),
      pagination: toPagination(total, query.page, query.limit),
    };
  }

  /** The number normalized to E.164, whether it is listed, and with include=entry its entry. */
  async check(organizationId: string, query: CheckDncQuery): Promise<DncCheckDto> {
    const phoneNumber = toE164(query.phoneNumber);
    if (!phoneNumber) throw new BadRequestException(INVALID_NUMBER);
    const entry = await this.dnc.findByNumber(organizationId, phoneNumber);
    if (!entry) return { phoneNumber, onDncList: false };
    return {
      phoneNumber,
      onDncList: true,
      entryId: entry.id,
      ...(query.include === 'entry' ? { entry: toDncEntryDto(entry) } : {}),
    };
  }

  /** Never rejects: the entry is committed whatever happens to its e-mail. */
  private async notifyAdded(
    principal: Principal,
    facts: Omit<DncAddedFacts, 'addedBy' | 'viaApiKey'>,
  ): Promise<void> {
    try {
      const addedBy = await this.users.findById(principal.organizationId, principal.userId);
      await this.notifications.notifyAdmins(
        principal.organizationId,
        dncAddedNotice({
          ...facts,
          addedBy: addedBy && { name: addedBy.name, email: addedBy.email },
          viaApiKey: principal.kind === 'apiKey',
        }),
      );
    } catch (error) {
      this.logger.warn(`DNC notification not prepared: ${JSON.stringify(describeUnknown(error))}`);
    }
  }

  /** Future imports may dial the number again; records already marked do_not_call stay so. */
  async remove(organizationId: string, id: string): Promise<void> {
    if (!(await this.dnc.delete(organizationId, id)))
      throw new NotFoundException('DNC entry not found');
  }
}
