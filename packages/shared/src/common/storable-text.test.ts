import { describe, expect, it } from 'vitest';
import { isStorableText, unstorableTextPaths } from './storable-text.ts';

describe('storable text', () => {
  it('refuses NUL and lone surrogates, accepts whole pairs', () => {
    expect(isStorableText('Kyiv 😀')).toBe(true);
    expect(isStorableText('a\u0000b')).toBe(false);
    expect(isStorableText('a\ud800b')).toBe(false);
    expect(isStorableText('\udc00')).toBe(false);
  });

  it('names every field that holds one, as validation errors do', () => {
    const body = { name: 'ok', attributes: [{ value: 'x' }, { value: 'y\u0000' }], tags: ['\ud83d'], n: 1, z: null };
    expect(unstorableTextPaths(body)).toEqual(['attributes.1.value', 'tags.0']);
    expect(unstorableTextPaths('\u0000')).toEqual(['_']);
    expect(unstorableTextPaths({ 'k\u0000': 'v' })).toEqual(['k\ufffd']);
    expect(unstorableTextPaths(Buffer.from([0]))).toEqual([]);
  });
});
