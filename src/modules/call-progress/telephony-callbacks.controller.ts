import {
  applyDecorators,
  Controller,
  Get,
  HttpCode,
  Param,
  Post,
  type RawBodyRequest,
  Req,
  Res,
} from '@nestjs/common';
import {
  ApiBody,
  ApiConsumes,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiProduces,
  ApiQuery,
  ApiTags,
} from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Public } from '../../auth/access';
import { ApiErrors } from '../../common/api-errors.decorator';
import { ApiEnvelope } from '../../common/envelope.decorators';
import { type AppConfig, InjectConfig } from '../../config';
import { INTEGRATIONS } from '../telephony/telephony.types';
import { inboundCallback } from './inbound-callback';
import { TelephonyCallbacksService } from './telephony-callbacks.service';
import { TransferCallbacksService } from './transfer-callbacks.service';

const VERIFIED =
  'Called by the telephony provider, not by API clients. Verified before anything is read or ' +
  'written: the number exists and uses this integration, `token` is its callback token, and the ' +
  "provider's signature holds over the public URL and the raw body (provider_two " +
  '`X-Twilio-Signature`; provider_one `X-Plivo-Signature-V3`; provider_three Ed25519 ' +
  "`telnyx-signature-ed25519` over `telnyx-timestamp|body` with the number's account key: the " +
  '`publicKey` it was added with, else PROVIDER_THREE_PUBLIC_KEY). Anything else answers 401 and ' +
  'changes nothing. `call` (provider_three: also `client_state`) names the attempt, which must ' +
  'be a call of this number. Idempotent (providers retry) and order-safe (a status only moves ' +
  'up: queued < ringing < in-progress < final; a late ringing never overwrites a final status).';

/** The documentation every callback operation shares. */
function ProviderCallback(
  method: 'GET' | 'POST',
  summary: string,
  description: string,
): MethodDecorator {
  const decorators = [
    ApiOperation({ summary, description: `${description} ${VERIFIED}` }),
    ApiParam({ name: 'integration', enum: INTEGRATIONS }),
    ApiParam({ name: 'phoneId', description: 'The phone number record the callback is for.' }),
    ApiQuery({ name: 'token', required: true, description: "The number's callback token." }),
    ApiQuery({ name: 'call', required: false, description: 'The attempt (phone log id).' }),
    ApiErrors(400, 401, 404),
  ];
  if (method === 'POST') {
    decorators.push(
      ApiConsumes('application/x-www-form-urlencoded', 'application/json'),
      ApiBody({
        description: "The provider's callback parameters, in its own format.",
        schema: { type: 'object', additionalProperties: true },
      }),
    );
  }
  return applyDecorators(...decorators);
}

const ANSWER_SUMMARY = 'Provider callback: the call was answered';
const ANSWER_DESCRIPTION =
  "Records the answer and replies with what the call hears, in the provider's format: TwiML " +
  '(provider_two) or Plivo XML (provider_one). When the voice runtime can run (VOICE_RUNTIME on ' +
  "and the speech engines ready) the call's audio is connected to the media WebSocket " +
  '`{PUBLIC_BASE_URL as ws:/wss:}/api/telephony/{integration}/stream` (TwiML ' +
  '`<Connect><Stream>` with the single-use stream token as a `<Parameter name="token">`; Plivo ' +
  '`<Stream bidirectional="true" keepCallAlive="true">` with `extraHeaders="token=…"`; base64 ' +
  'μ-law 8 kHz, 20 ms frames), where the agent speaks; the token lives five minutes, opens one ' +
  'socket once, and a socket without a valid one is closed before any audio is read. ' +
  "Otherwise the agent's greeting (its voicemail message when answering-machine detection says " +
  "machine) by the provider's speech verb, then hang up. Plivo also records the call when the " +
  'batch records calls. A call this number did not place is hung up. provider_three has no ' +
  'answer URL (404): its status callback starts the stream (`streaming_start`, token in the ' +
  'stream URL) or speaks through Call Control.';
const STATUS_SUMMARY = 'Provider callback: call progress';
const STATUS_DESCRIPTION =
  "Moves the attempt's phone log (callStatus, providerStatus, callDuration, answeredBy, " +
  'recordingUrl, endedReason) and raises its call events in the same transaction: ' +
  'call.started, call.answered, call.completed or call.failed (with the retry decision), ' +
  'call.recording.available. A callback naming no call of this number answers 404. ' +
  "provider_three also reports a transfer's new leg here (another call_control_id, the call's " +
  'client_state): while the transfer waits on it, its answer or bridge makes the transfer and ' +
  "its hang-up gives the caller back to the agent; a warm transfer's leg gets the brief " +
  '(`gather_using_speak`) on its answer and is bridged to the caller on the key 1 (any other ' +
  'key, or none, hangs it up). Later events of a leg change nothing.';

const TRANSFER_SUMMARY = "Provider callback: a transferred call's dial instructions";
const TRANSFER_DESCRIPTION =
  'Fetched by the provider when the voice agent transfers a live call (its transfer_call tool): ' +
  "provider_two as the `Url` of the call update, provider_one as the transfer's `aleg_url`. " +
  "Replies a <Dial> of the agent's transferNumber shown our calling number, ringing 45 s, whose " +
  'progress is reported to `transfer-status`: TwiML `<Dial action="{transfer-status}" ' +
  'method="POST" callerId="{our number}" timeout="45"><Number statusCallbackEvent="answered" ' +
  'statusCallback="{transfer-status}" statusCallbackMethod="POST">{number}</Number></Dial>`; ' +
  'Plivo XML `<Dial action="{transfer-status}" method="POST" redirect="true" ' +
  'callbackUrl="{transfer-status}" callbackMethod="POST" callerId="{our number}" timeout="45">' +
  "<Number>{number}</Number></Dial>`. A warm transfer (the agent's transferMode) adds what the " +
  'new party hears before being put through, `transfer-briefing`: provider_two as the ' +
  '<Number>\'s `url` (method POST), provider_one as `confirmSound`, with `confirmKey="1"` and ' +
  '`confirmTimeout="45"`. `<Hangup/>` when the call has no transfer under way or is over. ' +
  'provider_three transfers through Call Control and has no such URL (404).';

const BRIEFING_SUMMARY = "Provider callback: a warm transfer's brief";
const BRIEFING_DESCRIPTION =
  'Fetched by the provider when the new party of a warm transfer picks up, before they are put ' +
  "through: the brief the agent wrote (call.transferred's `summary`), read in the agent's " +
  'language, then "Press 1 to take the call." provider_two: TwiML `<Gather input="dtmf" ' +
  'numDigits="1" timeout="10" action="{transfer-decision}" method="POST"><Say>…</Say></Gather>' +
  '<Hangup/>` — no key within 10 s declines. provider_one: `<Speak>…</Speak>` (its confirmSound; ' +
  'Plivo bridges on the confirmKey). A call with no warm transfer waiting: provider_two ' +
  '`<Hangup/>`, provider_one an empty document. provider_three: 404.';

const DECISION_SUMMARY = "Provider callback: a warm transfer's answer";
const DECISION_DESCRIPTION =
  "provider_two's <Gather action> after the brief: `Digits` 1 makes the transfer (the phone " +
  'log gets transferredAt, call.transferred is raised, once) and the empty reply puts the new ' +
  'party through; any other key replies `<Hangup/>`, and when the <Dial> ends the caller is back ' +
  'with the agent, who says no one could take the call and goes on. provider_one and ' +
  'provider_three: 404.';

const TRANSFER_STATUS_SUMMARY = "Provider callback: a transfer's progress";
const TRANSFER_STATUS_DESCRIPTION =
  "Where provider_two and provider_one report a transfer's <Dial>. The new party answered " +
  "(provider_two: the <Number>'s status callback, CallStatus `in-progress` with ParentCallSid; " +
  'provider_one: DialAction `answer`, which a warm transfer reports once the confirmKey bridged ' +
  'the call; a warm transfer on provider_two is made by `transfer-decision` instead): the ' +
  'transfer is made — the phone log gets transferredAt ' +
  'and call.transferred is raised, once; the reply is an empty document. The <Dial> ended (its ' +
  '`action`: provider_two DialCallStatus, provider_one DialStatus): after a conversation with ' +
  'the new party (completed, answered) the reply is `<Hangup/>` (recording the transfer if its ' +
  'answer was never reported); unanswered (no-answer, busy, failed, canceled, timeout) the ' +
  'transfer is taken off the phone log and the reply connects the caller to a new media stream ' +
  '(as the answer does), where the agent tells the caller no one could take the call and goes ' +
  'on with the conversation, transfer_call no longer offered (where this process cannot stream, ' +
  'VOICE_RUNTIME off or its speech engines not ready, the caller hears an apology by the ' +
  "provider's speech verb, then `<Hangup/>`); a caller who already hung up gets `<Hangup/>`. " +
  'provider_three reports its transfers on the status URL (404 here).';

const XML = 'application/xml; charset=utf-8';
const XmlAnswer = () =>
  applyDecorators(
    HttpCode(200),
    ApiProduces('application/xml'),
    ApiOkResponse({
      description: 'The call instructions (TwiML or Plivo XML).',
      content: { 'application/xml': { schema: { type: 'string' } } },
    }),
  );

@ApiTags('Provider callbacks')
@Controller('api/telephony/:integration/:phoneId')
@Public()
export class TelephonyCallbacksController {
  constructor(
    @InjectConfig() private readonly config: AppConfig,
    private readonly callbacks: TelephonyCallbacksService,
    private readonly transfers: TransferCallbacksService,
  ) {}

  @Post('answer')
  @XmlAnswer()
  @ProviderCallback('POST', ANSWER_SUMMARY, ANSWER_DESCRIPTION)
  providerAnswer(
    @Param('integration') integration: string,
    @Param('phoneId') phoneId: string,
    @Req() request: RawBodyRequest<Request>,
    @Res({ passthrough: true }) response: Response,
  ): Promise<string> {
    return xml(this.callbacks.answer(integration, phoneId, this.inbound(request)), response);
  }

  @Get('answer')
  @XmlAnswer()
  @ProviderCallback('GET', `${ANSWER_SUMMARY} (GET)`, ANSWER_DESCRIPTION)
  providerAnswerByGet(
    @Param('integration') integration: string,
    @Param('phoneId') phoneId: string,
    @Req() request: RawBodyRequest<Request>,
    @Res({ passthrough: true }) response: Response,
  ): Promise<string> {
    return xml(this.callbacks.answer(integration, phoneId, this.inbound(request)), response);
  }

  @Post('transfer')
  @XmlAnswer()
  @ProviderCallback('POST', TRANSFER_SUMMARY, TRANSFER_DESCRIPTION)
  providerTransfer(
    @Param('integration') integration: string,
    @Param('phoneId') phoneId: string,
    @Req() request: RawBodyRequest<Request>,
    @Res({ passthrough: true }) response: Response,
  ): Promise<string> {
    return xml(this.transfers.dial(integration, phoneId, this.inbound(request)), response);
  }

  @Post('transfer-status')
  @XmlAnswer()
  @ProviderCallback('POST', TRANSFER_STATUS_SUMMARY, TRANSFER_STATUS_DESCRIPTION)
  providerTransferStatus(
    @Param('integration') integration: string,
    @Param('phoneId') phoneId: string,
    @Req() request: RawBodyRequest<Request>,
    @Res({ passthrough: true }) response: Response,
  ): Promise<string> {
    return xml(this.transfers.progress(integration, phoneId, this.inbound(request)), response);
  }

  @Post('transfer-briefing')
  @XmlAnswer()
  @ProviderCallback('POST', BRIEFING_SUMMARY, BRIEFING_DESCRIPTION)
  providerTransferBriefing(
    @Param('integration') integration: string,
    @Param('phoneId') phoneId: string,
    @Req() request: RawBodyRequest<Request>,
    @Res({ passthrough: true }) response: Response,
  ): Promise<string> {
    return xml(this.transfers.briefing(integration, phoneId, this.inbound(request)), response);
  }

  @Post('transfer-decision')
  @XmlAnswer()
  @ProviderCallback('POST', DECISION_SUMMARY, DECISION_DESCRIPTION)
  providerTransferDecision(
    @Param('integration') integration: string,
    @Param('phoneId') phoneId: string,
    @Req() request: RawBodyRequest<Request>,
    @Res({ passthrough: true }) response: Response,
  ): Promise<string> {
    return xml(this.transfers.decision(integration, phoneId, this.inbound(request)), response);
  }

  @Post('status')
  @ApiEnvelope({ message: 'Callback received' })
  @ProviderCallback('POST', STATUS_SUMMARY, STATUS_DESCRIPTION)
  providerStatus(
    @Param('integration') integration: string,
    @Param('phoneId') phoneId: string,
    @Req() request: RawBodyRequest<Request>,
  ): Promise<void> {
    return this.callbacks.status(integration, phoneId, this.inbound(request));
  }

  @Get('status')
  @ApiEnvelope({ message: 'Callback received' })
  @ProviderCallback('GET', `${STATUS_SUMMARY} (GET)`, STATUS_DESCRIPTION)
  providerStatusByGet(
    @Param('integration') integration: string,
    @Param('phoneId') phoneId: string,
    @Req() request: RawBodyRequest<Request>,
  ): Promise<void> {
    return this.callbacks.status(integration, phoneId, this.inbound(request));
  }

  private inbound(request: RawBodyRequest<Request>) {
    return inboundCallback(request, this.config.http.publicBaseUrl);
  }
}

/** The instructions document as XML; only on success: an error keeps the JSON envelope's type. */
async function xml(document: Promise<string>, response: Response): Promise<string> {
  const body = await document;
  response.setHeader('Content-Type', XML);
  return body;
}
