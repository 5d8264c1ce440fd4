import { ValidateBy, type ValidationOptions } from 'class-validator';
import { isEd25519PublicKey } from './crypto/ed25519-public-key';

/** A raw 32-byte Ed25519 public key, base64. */
export function IsEd25519PublicKey(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isEd25519PublicKey',
      validator: {
        validate: (value: unknown) => isEd25519PublicKey(value),
        defaultMessage: (args) =>
          `${args?.property ?? 'key'} must be a 32-byte Ed25519 public key, base64 encoded`,
      },
    },
    options,
  );
}
