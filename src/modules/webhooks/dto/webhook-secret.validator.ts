import { registerDecorator, type ValidationOptions } from 'class-validator';
import { SECRET_PREFIX } from '@app/webhooks';

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const MIN_SECRET_BYTES = 24;
const MAX_SECRET_BYTES = 64;

/** `whsec_` + canonical base64 of 24 to 64 bytes: what Standard Webhooks libraries accept. */
function isWebhookSecret(value: unknown): boolean {
  if (typeof value !== 'string' || !value.startsWith(SECRET_PREFIX)) return false;
  const encoded = value.slice(SECRET_PREFIX.length);
  if (!BASE64.test(encoded)) return false;
  const bytes = Buffer.from(encoded, 'base64').length;
  return bytes >= MIN_SECRET_BYTES && bytes <= MAX_SECRET_BYTES;
}

export function IsWebhookSecret(options?: ValidationOptions): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'isWebhookSecret',
      target: target.constructor,
      propertyName: propertyName as string,
      options: {
        message: `$property must be ${SECRET_PREFIX} followed by the base64 of ${MIN_SECRET_BYTES} to ${MAX_SECRET_BYTES} random bytes`,
        ...options,
      },
      validator: { validate: isWebhookSecret },
    });
}
