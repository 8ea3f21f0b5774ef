import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect } from 'vitest';
import { type ServerProcess, serverProcess } from './server-process.ts';
import { parseEml } from './test-app.ts';

/**
 * For a describe block: a server process on the embedded database in a data directory of its own
 * (prefixed `prefix`), killed if it still runs and its directory removed after the block's tests.
 */
export function embeddedServerProcess(prefix: string, env: Record<string, string>) {
  const dataDir = mkdtempSync(join(tmpdir(), prefix));
  const server = serverProcess({ DATA_DIR: dataDir, ...env });
  afterAll(async () => {
    await server.dispose();
    rmSync(dataDir, { recursive: true, force: true });
  });
  return { server, dataDir };
}

/**
 * Signs a team owner up on a running server without SMTP_URL and verifies the address with the link
 * of the mail it wrote to DATA_DIR/mail; returns JSON calls made as that owner. Kept out of
 * server-process.ts: test-app.ts (parseEml) loads the whole app, which its other users do not need.
 */
export async function verifiedOwner(server: ServerProcess, dataDir: string, name: string, email: string) {
  let token = '';
  const api = (method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
    server.api(method, path, token, body, headers);
  const password = 'Secret-pass1';
  const signup = await api('POST', '/auth/signup', { name, email, password, password_confirmation: password });
  expect(signup.status).toBe(201);
  token = signup.json.access_token;
  const mailDir = join(dataDir, 'mail');
  const mail = parseEml(readFileSync(join(mailDir, readdirSync(mailDir)[0]), 'utf8'));
  const verifyToken = mail.text.match(/verify-email\?token=([\w.-]+)/)?.[1];
  expect((await api('POST', '/auth/email/verify', { token: verifyToken })).status).toBe(200);
  return api;
}
