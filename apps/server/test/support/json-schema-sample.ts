/** Builds a small valid value for a JSON schema from the OpenAPI document, to call any route. */
export function sampleFor(schema: Record<string, unknown> | undefined): unknown {
  if (!schema) return undefined;
  const s = schema as Record<string, any>;
  if (s.const !== undefined) return s.const;
  if (Array.isArray(s.enum)) return s.enum[0];
  for (const key of ['anyOf', 'oneOf', 'allOf']) {
    if (Array.isArray(s[key])) {
      const branches = (s[key] as Record<string, unknown>[]).filter((b) => (b as { type?: string }).type !== 'null');
      if (key === 'allOf') return Object.assign({}, ...branches.map((b) => sampleFor(b) as object));
      return sampleFor(branches[0]);
    }
  }
  const type = Array.isArray(s.type) ? s.type.find((t: string) => t !== 'null') : s.type;
  switch (type) {
    case 'object': {
      // Only the required properties: optional ones may carry rules JSON schema cannot express.
      const required = new Set((s.required ?? []) as string[]);
      const out: Record<string, unknown> = {};
      for (const [name, prop] of Object.entries((s.properties ?? {}) as Record<string, Record<string, unknown>>)) {
        if (required.has(name)) out[name] = sampleFor(prop);
      }
      return out;
    }
    case 'array':
      return s.minItems ? [sampleFor(s.items)] : [];
    case 'integer':
    case 'number':
      return Math.max(1, Number(s.minimum ?? 1));
    case 'boolean':
      return true;
    case 'string': {
      if (s.format === 'email') return 'sample@example.com';
      if (s.format === 'date-time') return new Date().toISOString();
      if (s.pattern) return undefined;
      // Long enough for length rules, with a digit and a special character for password rules.
      return 'Sample-value1!'.padEnd(Number(s.minLength ?? 0), 'x');
    }
    default:
      return undefined;
  }
}
