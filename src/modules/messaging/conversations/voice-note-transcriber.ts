import { Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { describeUnknown } from '../../../common/describe-error';
import { type AppConfig, InjectConfig } from '../../../config';
import { createSpeechToText } from '../../voice/speech/create-speech-engines';
import type { SpeechToText } from '../../voice/speech/speech-engines';
import { GraphError } from '../graph/graph-error';
import type { MediaContent } from './inbound-content';
import type { MessagingMessageRow } from './messaging-conversations.schema';
import { MessagingMediaFetcher } from './messaging-media.fetcher';
import { MessagingMessagesRepository } from './messaging-messages.repository';
import { CALL_FRAME_BYTES, voiceNoteToUlaw } from './voice-note-audio';

/** The platform's limit on audio (16 MB); a voice note is far smaller. */
const MAX_VOICE_NOTE_BYTES = 16 * 1024 * 1024;
/** What of a voice note is heard (the batch engines buffer at most 90 s of audio). */
const MAX_HEARD_SECONDS = 60;
/** Download, decoding and recognition of one note, at most (the reply waits for it). */
export const VOICE_NOTE_TIMEOUT_MS = 45_000;
const LANGUAGE = 'en-US';

/**
 * Voice notes heard with the speech-to-text engine the voice runtime uses (STT_PROVIDER: the
 * offline PocketSphinx by default, or the OpenAI-compatible or Deepgram one it configures): the
 * note is downloaded from the platform, its Ogg Opus decoded and written to a recognition stream
 * as a call's audio. An instance of its own, made at the first note, without the calls' 3 s turn
 * deadline and circuit breakers (createSpeechToText): a minute of speech takes longer than a
 * call's turn, and a slow note must not stop the engine for live calls. The transcript is
 * stored on the message (its `content`), so the note is heard once; a note that cannot be heard
 * (download or decoding failed, no speech engine, nothing recognised) is stored `failed` and the
 * model is told a voice note came that it cannot hear. Never throws.
 */
@Injectable()
export class VoiceNoteTranscriber implements OnApplicationShutdown {
  private readonly logger = new Logger('Messaging');
  private speech?: ReturnType<typeof createSpeechToText>;

  constructor(
    @InjectConfig() private readonly config: AppConfig,
    private readonly media: MessagingMediaFetcher,
    private readonly messages: MessagingMessagesRepository,
  ) {}

  async onApplicationShutdown(): Promise<void> {
    await this.speech?.close?.();
  }

  /** The messages with every audio among them heard (those heard before are left as they are). */
  async hear(messages: readonly MessagingMessageRow[]): Promise<MessagingMessageRow[]> {
    const heard: MessagingMessageRow[] = [];
    for (const message of messages) {
      const { content } = message;
      if (message.type !== 'audio' || content?.kind !== 'media' || content.transcription) {
        heard.push(message);
        continue;
      }
      const transcribed = await this.transcribe(message, content);
      await this.messages.setContent(message.organizationId, message.id, transcribed);
      heard.push({ ...message, content: transcribed });
    }
    return heard;
  }

  private async transcribe(
    message: MessagingMessageRow,
    content: MediaContent,
  ): Promise<MediaContent> {
    const signal = AbortSignal.timeout(VOICE_NOTE_TIMEOUT_MS);
    try {
      const ogg = await this.media.read(
        {
          organizationId: message.organizationId,
          integrationId: message.integrationId,
          mediaId: content.mediaId,
        },
        MAX_VOICE_NOTE_BYTES,
        VOICE_NOTE_TIMEOUT_MS,
      );
      const ulaw = await voiceNoteToUlaw(ogg, MAX_HEARD_SECONDS);
      if (!ulaw) throw new Error('Not an Ogg Opus voice note');
      const transcript = (await this.recognise(ulaw, signal)).trim();
      if (transcript === '') throw new Error('Nothing recognisable in the voice note');
      return { ...content, transcript, transcription: 'done' };
    } catch (error) {
      const reason =
        error instanceof GraphError
          ? { kind: error.kind, code: error.code, fbtraceId: error.fbtraceId }
          : describeUnknown(error);
      this.logger.warn({ messageId: message.id, ...reason }, 'Voice note not transcribed');
      return { ...content, transcript: null, transcription: 'failed' };
    }
  }

  private engine(): SpeechToText {
    this.speech ??= createSpeechToText(this.config);
    return this.speech.engine;
  }

  /** The note as a call's audio, 20 ms at a time, then the engine's transcript. */
  private async recognise(ulaw: Buffer, signal: AbortSignal): Promise<string> {
    const stream = this.engine().open({ language: LANGUAGE });
    try {
      for (let at = 0; at < ulaw.length; at += CALL_FRAME_BYTES) {
        stream.write(ulaw.subarray(at, at + CALL_FRAME_BYTES));
      }
      return await stream.finish(signal);
    } finally {
      stream.close();
    }
  }
}
