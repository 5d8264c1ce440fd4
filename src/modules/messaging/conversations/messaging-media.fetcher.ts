import { Injectable, NotFoundException } from '@nestjs/common';
import { GraphClient } from '../graph/graph-client';
import { GraphError } from '../graph/graph-error';
import type { GraphMediaDownload } from '../graph/graph.types';
import { MessagingIntegrationsRepository } from '../messaging-integrations.repository';
import { MessagingIntegrationsService } from '../messaging-integrations.service';

export interface MediaOf {
  organizationId: string;
  integrationId: string;
  mediaId: string;
}

/** The longest a whole media download may take (a 100 MB document on a slow link). */
export const MEDIA_DOWNLOAD_TIMEOUT_MS = 60_000;

/**
 * A customer's media, through the number that received it: `GET /{media-id}` for a short-lived
 * URL, then that URL with the number's token. Failures are GraphErrors (not_found: the platform
 * no longer holds it), or a NotFoundException once the number is gone; a refused token marks
 * the number reauth_required.
 */
@Injectable()
export class MessagingMediaFetcher {
  constructor(
    private readonly graph: GraphClient,
    private readonly integrations: MessagingIntegrationsRepository,
    private readonly connected: MessagingIntegrationsService,
  ) {}

  async open(media: MediaOf, timeoutMs = MEDIA_DOWNLOAD_TIMEOUT_MS): Promise<GraphMediaDownload> {
    const integration = await this.integrations.findById(media.organizationId, media.integrationId);
    if (!integration) {
      throw new NotFoundException('The business number that received this media is gone');
    }
    const token = this.connected.storedToken(integration);
    try {
      const found = await this.graph.getMedia(token, media.mediaId);
      return await this.graph.openMedia(token, found.url, AbortSignal.timeout(timeoutMs));
    } catch (error) {
      if (error instanceof GraphError) await this.connected.noteRefusal(integration, error);
      throw error;
    }
  }

  /** The whole media in memory, refused past `maxBytes`. */
  async read(media: MediaOf, maxBytes: number, timeoutMs?: number): Promise<Buffer> {
    const download = await this.open(media, timeoutMs);
    if (download.length !== undefined && download.length > maxBytes) {
      download.body.destroy();
      throw new GraphError('invalid_request', `Media larger than ${maxBytes} bytes`);
    }
    const chunks: Buffer[] = [];
    let size = 0;
    try {
      for await (const chunk of download.body) {
        size += (chunk as Buffer).length;
        if (size > maxBytes) break;
        chunks.push(chunk as Buffer);
      }
    } catch {
      throw new GraphError('unreachable', 'Messaging platform media download was cut off');
    }
    if (size > maxBytes) {
      download.body.destroy();
      throw new GraphError('invalid_request', `Media larger than ${maxBytes} bytes`);
    }
    return Buffer.concat(chunks);
  }
}
