/** A raw 32-byte Ed25519 public key in base64 (padding optional), as Telnyx shows its "Public Key". */
export function isEd25519PublicKey(value: unknown): value is string {
  return (
    typeof value === 'string' &&
    /^[A-Za-z0-9+/]{43}=?$/.test(value) &&
    Buffer.from(value, 'base64').length === 32
  );
}
