import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  ArrayUnique,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  Length,
  Matches,
  Max,
  Min,
  ValidateNested,
} from 'class-validator';
import { IsObjectId } from '../../../common/is-object-id.validator';
import { MAX_JSON_CONTACTS } from '../../contacts/dto/import-contacts.dto';
import { DEFAULT_RETRY_ON, RETRY_OUTCOMES, type RetryOutcome } from '../batches.schema';
import { IsInstant } from './is-instant.validator';
import { RetryPolicyDto } from './retry-policy.dto';
import { IsTimeZone } from './is-time-zone.validator';
import { RowsCheckTheirOwnText } from '../../../common/storable-text';

const CLOCK_TIME = /^([01]\d|2[0-3]):[0-5]\d$/;

export class CallingHourDto {
  @ApiProperty({ example: '09:00', description: 'HH:MM, 24-hour clock, in the batch time zone' })
  @Matches(CLOCK_TIME, { message: 'start must be a clock time in HH:MM form' })
  start!: string;

  @ApiProperty({
    example: '18:00',
    description:
      'HH:MM, 24-hour clock, end excluded. Before start: the window crosses midnight and belongs ' +
      'to the day it starts (22:00–02:00 on an allowed Friday runs into Saturday morning); equal ' +
      'to start: 24 hours from start.',
  })
  @Matches(CLOCK_TIME, { message: 'end must be a clock time in HH:MM form' })
  end!: string;
}

export class CreateBatchDto {
  @ApiProperty({ example: 'November renewals', maxLength: 200 })
  @IsString()
  @Length(1, 200)
  batchName!: string;

  @ApiProperty({
    type: [String],
    example: ['65f1c0ffee0123456789abcd'],
    description:
      'Phone record ids of this organization the dialer rotates through; at least one active',
  })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(100)
  @ArrayUnique()
  @IsObjectId({ each: true })
  callingNumbers!: string[];

  @ApiPropertyOptional({
    example: 2,
    minimum: 0,
    maximum: 10,
    default: 0,
    description: 'Retry attempts for failed calls',
  })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(10)
  retry?: number;

  @ApiPropertyOptional({
    type: [String],
    enum: RETRY_OUTCOMES,
    example: ['busy', 'no_answer', 'voicemail'],
    default: DEFAULT_RETRY_ON,
    description:
      'Which endings earn one of the `retry` attempts: busy, no_answer, failed (the call could ' +
      'not connect or broke off), and what answered as the voice agent heard it — voicemail ' +
      '(its message left or not), mailbox_full, fax. Default: all but fax (a fax line never ' +
      'becomes a person). A call the service itself cut short (a deploy) is always made good.',
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(RETRY_OUTCOMES.length)
  @ArrayUnique()
  @IsIn(RETRY_OUTCOMES, { each: true })
  retryOn?: RetryOutcome[];

  @ApiPropertyOptional({
    example: 300,
    minimum: 0,
    maximum: 86_400,
    default: 0,
    description: 'Seconds between retries',
  })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(86_400)
  delay?: number;

  @ApiPropertyOptional({
    type: RetryPolicyDto,
    example: { busy: { attempts: 3, delay: 300 }, no_answer: { attempts: 1, delay: 3600 } },
    description:
      'Retry budgets per outcome, keyed by the `retryOn` words (busy, no_answer, failed, ' +
      'voicemail, mailbox_full, fax). A named outcome is retried by its own rule alone, whatever ' +
      '`retryOn` and `retry` say: while the attempt series has ended with that outcome at most ' +
      '`attempts` times (the ending just seen included), so `busy: { attempts: 3 }` calls a ' +
      'number that stays busy 4 times in all, and the busy endings spend nothing of another ' +
      "outcome's budget; each retry `delay` seconds after the call ended (absent: the batch's " +
      '`delay`). An outcome it does not name keeps the batch rule: retried when `retryOn` names ' +
      'it, while the attempts of the series not ended with a named outcome (the one just ended ' +
      'included) number at most `retry`, after `delay`. A series starts with the first call and again with each ' +
      're-dial (POST /api/call/batches/{batchId}/redial). A call the service itself cut short is ' +
      'made good outside any budget, as before.',
  })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => RetryPolicyDto)
  retryPolicy?: RetryPolicyDto;

  @ApiPropertyOptional({
    example: '2026-11-23T14:00:00Z',
    description:
      'ISO 8601 instant with its offset: nothing of the batch is dialed before it (absent: at ' +
      'once). The calling window and the callee rules still apply from then on.',
  })
  @IsOptional()
  @IsInstant()
  startAt?: string;

  @ApiPropertyOptional({
    example: '2026-11-27T22:00:00Z',
    description:
      'ISO 8601 instant with its offset, in the future and after `startAt`: no call is placed ' +
      'from then on, nor claimed within DIALER_LAST_CALL_MARGIN_SECONDS (180 s) before it, and ' +
      'no retry is scheduled that could not be. At endAt calls already placed finish (they are ' +
      'not hung up, nor retried), every contact still waiting is closed, and the batch becomes ' +
      '`completed` with statusReason `end_at_reached`. Absent: the batch runs until its ' +
      'contacts are done.',
  })
  @IsOptional()
  @IsInstant()
  endAt?: string;

  @ApiPropertyOptional({
    example: 'America/New_York',
    default: 'UTC',
    description: 'IANA time zone name',
  })
  @IsOptional()
  @IsTimeZone()
  timezone?: string;

  @ApiPropertyOptional({ type: CallingHourDto, description: 'Daily calling window' })
  @IsOptional()
  @ValidateNested()
  @Type(() => CallingHourDto)
  callingHour?: CallingHourDto;

  @ApiPropertyOptional({
    type: [Number],
    example: [1, 2, 3, 4, 5],
    default: [0, 1, 2, 3, 4, 5, 6],
    description: '0 = Sunday through 6 = Saturday',
  })
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayUnique()
  @IsInt({ each: true })
  @Min(0, { each: true })
  @Max(6, { each: true })
  allowedDays?: number[];

  @ApiPropertyOptional({
    default: true,
    description:
      'Call only between 08:00 and 21:00 in every time zone the callee’s number may be in. ' +
      'Set false only for non-solicitation calls (reminders, consented service calls).',
  })
  @IsOptional()
  @IsBoolean()
  enforceCalleeLocalHours?: boolean;

  @ApiPropertyOptional({
    default: false,
    description:
      "Take each contact's `timezone` as where the callee is, even when their number cannot be " +
      'there (a CRM that knows its customers moved). By default a contact timezone is used only ' +
      "when it is one of the zones the number may be in; otherwise every one of the number's zones " +
      'must be within calling hours (the strictest wins), so a CRM default such as "UTC" cannot ' +
      'open a 03:00 call.',
  })
  @IsOptional()
  @IsBoolean()
  trustContactTimezone?: boolean;

  @ApiPropertyOptional({
    example: '65f1c0ffee0123456789abcd',
    description:
      'Voice agent id of this organization that speaks on the calls (404 otherwise, and nothing ' +
      'is created). Without it the organization’s default agent speaks, as it does once the ' +
      'named agent is deleted (the batch’s agentId then becomes null).',
  })
  @IsOptional()
  @IsObjectId()
  agentId?: string;

  @ApiPropertyOptional({
    example: 5,
    minimum: 1,
    maximum: 1_000,
    description:
      'Calls of this batch in progress at once. It can only lower the organization’s limit ' +
      '(DIALER_MAX_CONCURRENT_CALLS, shared by all its batches), never raise it. Absent: the ' +
      'organization’s limit alone.',
  })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(1_000)
  maxConcurrentCalls?: number;

  @ApiPropertyOptional({
    default: false,
    description:
      'Record each answered call: its phone log gets recordingUrl and call.recording.available ' +
      'is raised when the provider has the recording.',
  })
  @IsOptional()
  @IsBoolean()
  recordCalls?: boolean;

  @ApiPropertyOptional({
    type: 'array',
    items: { type: 'object', additionalProperties: { type: 'string' } },
    example: [{ phoneNumber: '+14155551234', name: 'Ada', account_id: 'A-1', priority: 'high' }],
    description: `Contacts: each needs phoneNumber; other string fields are the dynamic contact fields. At most ${MAX_JSON_CONTACTS} per request (upload a CSV for more).`,
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_JSON_CONTACTS)
  @IsObject({ each: true })
  @RowsCheckTheirOwnText()
  contacts?: Record<string, unknown>[];
}
