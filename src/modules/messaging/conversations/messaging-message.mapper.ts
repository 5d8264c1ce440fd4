import type { MessagingMessageDto } from './dto/messaging-conversation.dto';
import type { MessagingMediaDto } from './dto/messaging-message-content.dto';
import { isMediaType } from './inbound-content';
import type { MessagingMessageRow } from './messaging-conversations.schema';

/** A message of the log as the API shows it: its content spread over one field per kind. */
export function toMessageDto(row: MessagingMessageRow): MessagingMessageDto {
  const { content } = row;
  return {
    _id: row.id,
    direction: row.direction,
    type: row.type,
    purpose: row.purpose,
    text: row.text,
    media: content?.kind === 'media' ? mediaOf(row, content) : null,
    choice:
      content?.kind === 'choice'
        ? {
            via: content.via,
            title: content.title,
            payload: content.payload,
            description: content.description,
          }
        : null,
    location:
      content?.kind === 'location'
        ? {
            latitude: content.latitude,
            longitude: content.longitude,
            name: content.name,
            address: content.address,
            url: content.url,
          }
        : null,
    contacts: content?.kind === 'contacts' ? content.contacts : null,
    reaction:
      content?.kind === 'reaction' ? { emoji: content.emoji, messageId: content.messageId } : null,
    status: row.status,
    error: row.errorCode !== null ? { code: row.errorCode, message: row.errorMessage ?? '' } : null,
    platformMessageId: row.platformMessageId,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

function mediaOf(
  row: MessagingMessageRow,
  media: Extract<MessagingMessageRow['content'], { kind: 'media' }>,
): MessagingMediaDto {
  return {
    id: media.mediaId,
    type: isMediaType(row.type) ? row.type : 'document',
    mimeType: media.mimeType,
    sha256: media.sha256,
    caption: row.text,
    filename: media.filename,
    voice: media.voice,
    transcript: media.transcript ?? null,
    transcription: media.transcription ?? null,
    downloadPath: `/api/messaging/conversations/${row.conversationId}/messages/${row.id}/media`,
  };
}
