/**
 * Text PostgreSQL can store: no NUL character, and no lone UTF-16 surrogate (JSON's "\ud800"), which
 * would otherwise be refused by the database (a 500) or replaced by U+FFFD on the way in without a
 * word. Every text a request carries is checked against this before any schema sees it.
 */
export function isStorableText(text: string): boolean {
  return text.isWellFormed() && !text.includes('\u0000');
}

/**
 * Paths (`attributes.0.value`, as validation errors name fields) of every string, or object key, in
 * `value` that is not storable text.
 */
export function unstorableTextPaths(value: unknown, path: string[] = [], found: string[] = []): string[] {
  if (typeof value === 'string') {
    if (!isStorableText(value)) found.push(path.join('.') || '_');
  } else if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) unstorableTextPaths(value[i], [...path, String(i)], found);
  } else if (isPlainObject(value)) {
    for (const [key, item] of Object.entries(value)) {
      if (!isStorableText(key)) found.push([...path, printable(key)].join('.'));
      else unstorableTextPaths(item, [...path, key], found);
    }
  }
  return found;
}

/** A name that cannot be stored, shown in the error so the field can still be named. */
const printable = (text: string) => text.toWellFormed().replaceAll('\u0000', '\ufffd');

/** Parsed JSON, query and path objects; never a Buffer or a stream, which are not text. */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
