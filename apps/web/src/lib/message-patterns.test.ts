import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { matchMessagePattern } from './message-patterns.ts';

const catalogue = (lang: string) =>
  JSON.parse(readFileSync(join(import.meta.dirname, '..', 'locales', lang, 'validation.json'), 'utf8'));

/** zod's own wording, made by zod itself: a new zod that words them otherwise fails here. */
const zodMessages = [
  z.string().max(3).safeParse('abcdef'),
  z.string().min(2).safeParse('a'),
  z.array(z.number()).max(1).safeParse([1, 2]),
  z.array(z.number()).min(1).safeParse([]),
  z.number().max(100).safeParse(1000),
  z.number().int().positive().safeParse(-1),
  z.object({ a: z.string() }).safeParse({}),
  z.number().safeParse('x'),
  z.enum(['a', 'b']).safeParse('c'),
  z.email().safeParse('x'),
].map((result) => result.error?.issues[0]?.message ?? '');

describe("zod's default messages", () => {
  it.each(['en', 'uk', 'ru'])('are translated in %s, with the limits they name', (lang) => {
    const validation = catalogue(lang);
    for (const message of zodMessages) {
      const pattern = matchMessagePattern(message);
      const text = pattern ? validation.pattern[pattern.key.replace(/^pattern\./, '')] : validation[message];
      expect(text, `${lang}: ${message}`).toEqual(expect.any(String));
      // Every placeholder the text uses is filled by the pattern (3, 2, 1, 100, 0 above).
      for (const [, name] of (text as string).matchAll(/\{\{(\w+)\}\}/g)) {
        expect(pattern?.values[name], `${lang}: ${message} → {{${name}}}`).toMatch(/^\d+$/);
      }
    }
  });
});
