import { Injectable } from '@nestjs/common';
import { SecretBox } from '../../common/crypto/secret-box';
import type { ProviderCredentials } from '../telephony/telephony.types';

export interface StoredPhoneSecrets extends ProviderCredentials {
  /** The unguessable token in this number's callback URLs. */
  callbackToken: string;
}

/** Seals a number's provider credentials, bound to its organization and row. */
@Injectable()
export class PhoneCredentials {
  constructor(private readonly box: SecretBox) {}

  seal(organizationId: string, phoneId: string, secrets: StoredPhoneSecrets): string {
    return this.box.seal(JSON.stringify(secrets), associatedData(organizationId, phoneId));
  }

  open(organizationId: string, phoneId: string, sealed: string): StoredPhoneSecrets {
    return JSON.parse(
      this.box.open(sealed, associatedData(organizationId, phoneId)),
    ) as StoredPhoneSecrets;
  }
}

const associatedData = (organizationId: string, phoneId: string) =>
  `organization:${organizationId}|phone_numbers:${phoneId}`;
