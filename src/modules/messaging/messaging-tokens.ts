import { Injectable } from '@nestjs/common';
import { SecretBox } from '../../common/crypto/secret-box';

/** Seals an integration's access token, bound to its organization and row. */
@Injectable()
export class MessagingTokens {
  constructor(private readonly box: SecretBox) {}

  seal(organizationId: string, integrationId: string, accessToken: string): string {
    return this.box.seal(accessToken, associatedData(organizationId, integrationId));
  }

  open(organizationId: string, integrationId: string, sealed: string): string {
    return this.box.open(sealed, associatedData(organizationId, integrationId));
  }
}

const associatedData = (organizationId: string, integrationId: string) =>
  `organization:${organizationId}|messaging_integrations:${integrationId}`;
