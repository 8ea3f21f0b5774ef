/**
 * Server sentences that carry a value ("\"12\" is not a valid phone number"). Each pattern maps
 * to a key of the `validation` catalogue's `pattern` group; the captures fill its placeholders.
 */
const PATTERNS: [RegExp, string, string[]][] = [
  [/^"(.*)" is not a valid phone number$/s, 'invalidPhone', ['value']],
  [/^"(.*)" is not a valid e-mail$/s, 'invalidEmail', ['value']],
  [/^"(.*)" is not a number$/s, 'invalidNumber', ['value']],
  [/^"(.*)" is not a date \(YYYY-MM-DD\)$/s, 'invalidDate', ['value']],
  [/^"(.*)" is not a link \(http:\/\/ or https:\/\/\)$/s, 'invalidUrl', ['value']],
  [/^(\S+) matches an ignored phone format and was not stored$/, 'ignoredPhone', ['value']],
  [/^(\d+) lead\(s\) set to (\w+)$/, 'statusSet', ['count', 'status']],
  [/^(\d+) lead\(s\) already (\w+)$/, 'statusAlready', ['count', 'status']],
  [/^(\d+) lead\(s\) not found$/, 'leadsNotFound', ['count']],
  [/^The attribute "(.*)" is listed twice\.$/, 'attributeTwice', ['name']],
  [/^The attribute "(.*)" already exists\.$/, 'attributeExists', ['name']],
  [/^Not a phone pattern: (.*)\. Use digits, X for any digit and \* for any digits\.$/s, 'badPattern', ['lines']],
  [/^Use (lead-\w+) for a (\w+) attribute\.$/, 'wrongValueKind', ['kind', 'type']],
  [/^"(.*)" is not a valid value\.$/s, 'invalidValue', ['value']],
  [/^This filter cannot use (\w+)\.$/, 'filterOperator', ['operator']],
  [/^A value is longer than (\d+) characters$/, 'valueTooLong', ['count']],
  // zod's own messages, for checks the schemas give no sentence of their own (the server's 422s and
  // the browser's forms alike): lengths, sizes, types and choices.
  [/^Too big: expected string to have <=?(\d+) characters$/, 'textTooLong', ['max']],
  [/^Too small: expected string to have >=?(\d+) characters$/, 'textTooShort', ['min']],
  [/^Too big: expected (?:array|set) to have <=?(\d+) items$/, 'tooManyItems', ['max']],
  [/^Too small: expected (?:array|set) to have >=?(\d+) items$/, 'tooFewItems', ['min']],
  [/^Too big: expected (?:number|int|bigint) to be <=?(\S+)$/, 'numberTooBig', ['limit']],
  [/^Too small: expected (?:number|int|bigint) to be >=?(\S+)$/, 'numberTooSmall', ['limit']],
  [/^Invalid input: expected \w+, received undefined$/, 'required', []],
  [/^Invalid input: expected \w+, received \w+$/, 'wrongType', []],
  [/^Invalid option: expected one of .*$/s, 'invalidOption', []],
];

export function matchMessagePattern(message: string): { key: string; values: Record<string, string> } | null {
  for (const [regex, key, names] of PATTERNS) {
    const match = regex.exec(message);
    if (match) {
      return { key: `pattern.${key}`, values: Object.fromEntries(names.map((n, i) => [n, match[i + 1] ?? ''])) };
    }
  }
  return null;
}
