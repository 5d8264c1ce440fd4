import { randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { sha256Hex } from '../../../common/crypto/sha256';
import { type StreamGrant, StreamTokensRepository } from './stream-tokens.repository';

/**
 * How long a stream token may wait to be presented: the provider opens the stream within
 * seconds of reading the answer instructions; five minutes covers its retries, not replays.
 */
export const STREAM_TOKEN_TTL_SECONDS = 300;

/** Longest token we hash; ours are 64 characters, anything far longer is not one of ours. */
const MAX_TOKEN_LENGTH = 256;

/**
 * Single-use stream tokens: 256 random bits handed to the provider, only their hash kept. Hex,
 * because Plivo's <Stream extraHeaders> carries only [A-Za-z0-9] values: a base64url token's
 * '-' or '_' (in three tokens of four) would not reach the stream.
 */
@Injectable()
export class StreamTokens {
  constructor(private readonly tokens: StreamTokensRepository) {}

  /**
   * A new token for this call (inside the answer's transaction: it exists once that commits),
   * bound to the live call the answer callback named when that is not the placed call's id.
   */
  async issue(
    organizationId: string,
    phoneLogId: string,
    liveCallId: string | null = null,
  ): Promise<string> {
    const token = randomBytes(32).toString('hex');
    await this.tokens.insert(
      organizationId,
      phoneLogId,
      sha256Hex(token),
      STREAM_TOKEN_TTL_SECONDS,
      liveCallId,
    );
    return token;
  }

  /** The call the token opens, once; null for a forged, expired or used token. */
  consume(token: string | undefined): Promise<StreamGrant | null> {
    if (!token || token.length > MAX_TOKEN_LENGTH) return Promise.resolve(null);
    return this.tokens.consume(sha256Hex(token));
  }
}
