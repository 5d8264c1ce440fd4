/** Every provider streams 20 ms of 8 kHz mono G.711 per media message: 160 bytes. */
export const FRAME_MS = 20;
export const FRAME_BYTES = 160;

/**
 * What a provider's media stream tells the call session, in one shape for Twilio, Plivo and
 * Telnyx. Audio is always μ-law: a gateway decodes an A-law (PCMA) leg before handing it on.
 */
export type InboundMediaEvent =
  | {
      kind: 'start';
      /** The provider's id of this stream (Twilio streamSid, Plivo streamId); echoed on sends. */
      streamId: string;
      providerCallId: string;
      /** The single-use stream token, where the provider carries it in the start message. */
      token: string | undefined;
    }
  | { kind: 'audio'; ulaw: Buffer }
  /** The audio sent before the mark of this name has been played to the caller. */
  | { kind: 'mark'; name: string }
  /** The caller pressed a key (every provider reports it as `{event: 'dtmf', dtmf: {digit}}`). */
  | { kind: 'dtmf'; digit: string }
  /** The provider dropped the audio it had buffered (after a clear). */
  | { kind: 'cleared' }
  | { kind: 'stop' };

/** What the call session sends back down the stream; a gateway writes it in its provider's format. */
export interface MediaOutput {
  /** One 20 ms μ-law frame; the caller of this method paces frames in real time. */
  sendAudio(ulaw: Buffer): void;
  /** Asks the provider to report when everything sent so far has been played. */
  sendMark(name: string): void;
  /** Drops whatever the provider has buffered but not played (barge-in). */
  clear(): void;
  /**
   * Ends the stream (the call itself is ended through the provider's REST API); `refused`: the
   * socket never proved which call it carries.
   */
  close(refused?: boolean): void;
}
