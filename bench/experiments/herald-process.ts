// The real server (`apps/server/src/main.ts`) as a child process on an embedded DATA_DIR, so it can
// be killed with any signal and started again on the same directory, and a small API client for it.
import { type ChildProcess, spawn } from 'node:child_process';
import { openSync, readdirSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { UNLIMITED_TRIAL_PLANS } from '../lib/plans-file.ts';

const main = fileURLToPath(new URL('../../apps/server/src/main.ts', import.meta.url));

export class HeraldProcess {
  #child: ChildProcess | undefined;
  readonly dataDir: string;
  readonly logFile: string;
  readonly url: string;
  token = '';

  constructor(dataDir: string, port: number, logFile: string) {
    this.dataDir = dataDir;
    this.logFile = logFile;
    this.url = `http://127.0.0.1:${port}`;
  }

  /** Starts the server; resolves with the milliseconds until /api/health answered 200. */
  async start(timeoutMs = 180_000): Promise<number> {
    const started = performance.now();
    const child = this.spawn();
    while (performance.now() - started < timeoutMs) {
      if (child.exitCode !== null || child.signalCode !== null) {
        throw new Error(`server exited during start (code ${child.exitCode}); see ${this.logFile}`);
      }
      try {
        if ((await fetch(`${this.url}/api/health`)).ok) return Math.round(performance.now() - started);
      } catch {}
      await sleep(100);
    }
    throw new Error(`server did not answer /api/health within ${timeoutMs} ms; see ${this.logFile}`);
  }

  /** Starts the server process without waiting for it to answer. */
  spawn(): ChildProcess {
    const running = this.#child;
    if (running && running.exitCode === null && running.signalCode === null) {
      throw new Error('a server is still running on this DATA_DIR; two would corrupt it');
    }
    const env: NodeJS.ProcessEnv = { ...process.env };
    delete env.DATABASE_URL;
    const log = openSync(this.logFile, 'a');
    const child = spawn(process.execPath, [main], {
      env: {
        ...env,
        NODE_ENV: 'production',
        DATA_DIR: this.dataDir,
        PORT: new URL(this.url).port,
        HOST: '127.0.0.1',
        JWT_SECRET: 'embedded-kill-experiment-secret-0123456789',
        LOG_LEVEL: 'warn',
        HERALD_PLANS_FILE: UNLIMITED_TRIAL_PLANS,
      },
      stdio: ['ignore', log, log],
    });
    this.#child = child;
    return child;
  }

  /** Sends the signal; resolves when the process is gone, with its exit code and how long it took. */
  async stop(signal: 'SIGKILL' | 'SIGTERM', timeoutMs = 120_000) {
    const child = this.#child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return { code: null, ms: 0, hung: false };
    const started = performance.now();
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill(signal);
    const timer = new Promise<'hung'>((resolve) => setTimeout(() => resolve('hung'), timeoutMs).unref());
    const result = await Promise.race([exited, timer]);
    if (result === 'hung') {
      child.kill('SIGKILL');
      await exited;
      return { code: null, ms: Math.round(performance.now() - started), hung: true };
    }
    return { code: result, ms: Math.round(performance.now() - started), hung: false };
  }

  /**
   * One API call. JSON bodies go through node:http without a timeout: embedded, a request waits
   * for the one PGlite connection, which a publishing transaction may hold for minutes (fetch
   * would give up after 300 s).
   */
  // biome-ignore lint/suspicious/noExplicitAny: the experiment reads a few known fields of JSON answers
  async api(method: string, path: string, body?: unknown): Promise<{ status: number; json: any }> {
    const auth: Record<string, string> = this.token ? { authorization: `Bearer ${this.token}` } : {};
    if (body instanceof FormData) {
      const res = await fetch(`${this.url}/api${path}`, { method, headers: auth, body });
      const text = await res.text();
      return { status: res.status, json: text ? JSON.parse(text) : null };
    }
    const payload = body === undefined ? undefined : JSON.stringify(body);
    return new Promise((resolve, reject) => {
      const req = request(
        `${this.url}/api${path}`,
        { method, headers: { ...auth, ...(payload ? { 'content-type': 'application/json' } : {}) } },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (d: string) => {
            text += d;
          });
          res.on('end', () => resolve({ status: res.statusCode ?? 0, json: text ? JSON.parse(text) : null }));
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(payload);
    });
  }

  /** Signs up and verifies the address with the link the server wrote to DATA_DIR/mail (no SMTP). */
  async signUp(email: string) {
    const password = 'Kill-test-pass1';
    const up = await this.api('POST', '/auth/signup', {
      name: 'Kill Experiment',
      email,
      password,
      password_confirmation: password,
    });
    if (up.status !== 201) throw new Error(`signup: ${up.status} ${JSON.stringify(up.json)}`);
    this.token = up.json.access_token;
    let token: string | undefined;
    for (let i = 0; i < 100 && !token; i++) {
      const dir = join(this.dataDir, 'mail');
      const files = (() => {
        try {
          return readdirSync(dir);
        } catch {
          return [];
        }
      })();
      for (const f of files) {
        // Quoted-printable: undo soft line breaks and the escaped '='.
        const text = readFileSync(join(dir, f), 'utf8')
          .replace(/=\r?\n/g, '')
          .replaceAll('=3D', '=');
        token ??= text.match(/verify-email\?token=([\w.-]+)/)?.[1];
      }
      if (!token) await sleep(100);
    }
    if (!token) throw new Error('no verification mail in DATA_DIR/mail');
    const verified = await this.api('POST', '/auth/email/verify', { token });
    if (verified.status !== 200) throw new Error(`verify: ${verified.status} ${JSON.stringify(verified.json)}`);
  }
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
