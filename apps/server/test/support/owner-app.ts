import { afterAll, beforeAll } from 'vitest';
import { signupVerified } from './accounts.ts';
import { attributeIds } from './leads.ts';
import { startTestApp, type TestApp } from './test-app.ts';

export type Owner = Awaited<ReturnType<typeof signupVerified>>;
export interface OwnerApp {
  t: TestApp;
  owner: Owner;
  /** The team's lead attribute ids by slug, read after `prepare`. */
  attrs: Record<string, number>;
}

/**
 * For a describe block: before its tests, starts a test app on `kind` with a verified team owner,
 * runs `prepare` (to add attributes, say) and hands all to `use`; after them, closes the app.
 */
export function ownerApp(
  kind: 'embedded' | 'postgres',
  use: (app: OwnerApp) => void,
  prepare?: (t: TestApp, owner: Owner) => Promise<void>,
) {
  let t: TestApp | undefined;
  beforeAll(async () => {
    t = await startTestApp(kind);
    const owner = await signupVerified(t);
    await prepare?.(t, owner);
    use({ t, owner, attrs: await attributeIds(t, owner.token) });
  });
  afterAll(() => t?.close());
}
