/** Escapes LIKE/ILIKE wildcards so a user's search text matches literally. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}
