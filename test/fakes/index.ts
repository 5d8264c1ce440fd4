export {
  HttpFake,
  type AnsweredCall,
  type AutoOutcome,
  encodeForm,
  parseForm,
  type CallbackDelivery,
  type CallbackMatch,
  type DeliveryOptions,
  type FaultMatch,
  type FormBody,
  type RecordedRequest,
  type SlowRequests,
} from './http-fake';
export type { Flood } from './flood';
export * from './signatures';
export { PlivoFake } from './plivo.fake';
export type {
  PlivoAccount,
  PlivoApplication,
  PlivoCall,
  PlivoCallStatus,
  PlivoNumber,
} from './plivo.model';
export { TwilioFake, twilioError } from './twilio.fake';
export type { TwilioAccount, TwilioCall, TwilioCallStatus, TwilioNumber } from './twilio.model';
export { TelnyxFake, telnyxError, type TelnyxEventType } from './telnyx.fake';
export type {
  TelnyxAccount,
  TelnyxApplication,
  TelnyxCall,
  TelnyxNumber,
  TelnyxOutboundVoiceProfile,
  TelnyxWebhook,
} from './telnyx.model';
export { startProviderFakes, type ProviderFakes } from './sandbox';
export {
  GraphFake,
  graphError,
  hubSignature,
  messageSends,
  READ_RECEIPTS,
  sampleTemplate,
  statusEvent,
  textMessageEvent,
} from './graph.fake';
export type {
  GraphBusinessAccount,
  GraphNumber,
  GraphReadReceipt,
  GraphSentMessage,
} from './graph.fake';
export { ChatFake, type ChatReply, type FakeToolCall, type ReceivedChatRequest } from './chat.fake';
export { type Fault, Faults } from './faults';
export {
  EmbeddingsFake,
  type EmbeddingsAnswer,
  type ReceivedEmbeddingsRequest,
} from './embeddings.fake';
