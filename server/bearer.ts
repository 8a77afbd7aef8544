import { createHash, timingSafeEqual } from 'node:crypto';

const digest = (text: string) => createHash('sha256').update(text).digest();

/**
 * Whether an Authorization header is `Bearer TOKEN`, compared in constant time (both sides
 * hashed first, so neither the token's length nor its first wrong byte shows in the timing).
 * Operators' tokens (METRICS_TOKEN, ADMIN_TOKEN) are checked with it.
 */
export function bearerCheck(token: string): (header: string | undefined) => boolean {
  const expected = digest(`Bearer ${token}`);
  return (header) => header !== undefined && timingSafeEqual(digest(header), expected);
}
