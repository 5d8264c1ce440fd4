import {
  ConflictException,
  GoneException,
  Injectable,
  Logger,
  NotFoundException,
  StreamableFile,
} from '@nestjs/common';
import { describeUnknown } from '../../../common/describe-error';
import { GraphError, messagingPlatformUnavailable } from '../graph/graph-error';
import { MessagingMessagesRepository } from './messaging-messages.repository';
import { MessagingMediaFetcher } from './messaging-media.fetcher';

/** The media types served as they are; anything else is served as bytes to save. */
const SAFE_TYPE = /^(image|audio|video)\/[a-z0-9.+-]+$|^application\/pdf$/;
/** Images that can carry script are never served as images. */
const SCRIPTABLE = /svg|xml|html/;

/**
 * A customer's photo, voice note, video, document or sticker, downloaded from the platform
 * through the number that received it (nothing is kept here: the platform holds incoming media
 * for a limited time, 30 days at Meta's word).
 */
@Injectable()
export class ConversationMediaService {
  private readonly logger = new Logger('Messaging');

  constructor(
    private readonly messages: MessagingMessagesRepository,
    private readonly media: MessagingMediaFetcher,
  ) {}

  async download(
    organizationId: string,
    conversationId: string,
    messageId: string,
  ): Promise<StreamableFile> {
    const message = await this.messages.findById(organizationId, messageId);
    const content = message?.conversationId === conversationId ? message.content : null;
    if (!message || content?.kind !== 'media') {
      throw new NotFoundException('No media in this conversation with that message id');
    }
    const mediaId = content.mediaId;
    try {
      const download = await this.media.open({
        organizationId,
        integrationId: message.integrationId,
        mediaId,
      });
      const type = (content.mimeType ?? download.contentType ?? '').split(';')[0].trim();
      return new StreamableFile(download.body, {
        type: SAFE_TYPE.test(type) && !SCRIPTABLE.test(type) ? type : 'application/octet-stream',
        disposition: `attachment; filename*=UTF-8''${encodeURIComponent(
          content.filename ?? `${message.type}-${message.id}`,
        )}`,
        ...(download.length !== undefined ? { length: download.length } : {}),
      }).setErrorLogger((error) =>
        this.logger.warn({ messageId, ...describeUnknown(error) }, 'Media download cut off'),
      );
    } catch (error) {
      if (!(error instanceof GraphError)) throw error;
      this.logger.warn(
        { messageId, kind: error.kind, code: error.code, fbtraceId: error.fbtraceId },
        'Media download failed',
      );
      throw httpErrorOf(error);
    }
  }
}

function httpErrorOf(error: GraphError) {
  if (error.kind === 'not_found') {
    return new GoneException(
      'The messaging platform no longer holds this media (it keeps incoming media for a ' +
        'limited time)',
    );
  }
  if (error.kind === 'auth' || error.kind === 'permission') {
    return new ConflictException(
      'The messaging platform refused the number’s access token: connect the number again',
    );
  }
  // Down, throttling, timed out, or refusing in a way nothing here can fix.
  return messagingPlatformUnavailable(error);
}
