import { randomBytes } from 'node:crypto';
import { BASE62 } from '@herald/shared/short-links/short-link-code';

/**
 * `length` base-62 characters from the system's CSPRNG. Bytes of 248 and above are dropped so
 * every character is equally likely (248 = 4 × 62); a handful of lines, so no library for it.
 */
export function randomCode(length: number): string {
  let code = '';
  while (code.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248) code += BASE62[byte % 62];
      if (code.length === length) break;
    }
  }
  return code;
}
