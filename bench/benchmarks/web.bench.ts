import { execFileSync } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Browser, chromium } from 'playwright-core';
import { startHerald } from '../lib/herald.ts';
import type { BenchContext, Row } from '../lib/types.ts';

export const name = 'web';
export const description =
  'the built web app in Chromium: JavaScript bytes on the wire and time to a usable first screen (signed-in audiences, sign-in page), cold cache, vs a bare page';

const WEB_BAR = 'DESIGN §5 web';
const SAMPLES = Number(process.env.BENCH_WEB_SAMPLES ?? 5);

interface Load {
  ms: number;
  /** Bytes of JavaScript as transferred (compressed when the server compresses). */
  jsBytes: number;
}

/** One cold load in a fresh context (no cache): until `ready` is visible. */
async function load(browser: Browser, url: string, ready: string, token?: string): Promise<Load> {
  const context = await browser.newContext();
  try {
    await context.addInitScript((t) => {
      localStorage.setItem('herald.lang', 'en');
      if (t) localStorage.setItem('herald.token', t);
    }, token ?? '');
    const page = await context.newPage();
    let jsBytes = 0;
    page.on('response', async (response) => {
      if (!response.url().endsWith('.js')) return;
      const sizes = await response
        .request()
        .sizes()
        .catch(() => null);
      jsBytes += sizes?.responseBodySize ?? 0;
    });
    const started = performance.now();
    await page.goto(url);
    await page.getByText(ready, { exact: true }).first().waitFor({ state: 'visible', timeout: 30_000 });
    const ms = performance.now() - started;
    await page.waitForLoadState('networkidle');
    return { ms, jsBytes };
  } finally {
    await context.close();
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export async function run(ctx: BenchContext): Promise<Row[]> {
  ctx.log('building the web app');
  execFileSync('npm', ['run', 'build', '-w', '@herald/web'], { stdio: 'ignore' });
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  // Reference: the same browser loading a bare page with one tiny script from a bare server.
  const bare = createServer((req, res) => {
    if (req.url === '/app.js') {
      res.setHeader('content-type', 'text/javascript');
      res.end("document.body.insertAdjacentHTML('beforeend', '<p>Ready</p>');");
      return;
    }
    res.setHeader('content-type', 'text/html');
    res.end('<!doctype html><html><body><script type="module" src="/app.js"></script></body></html>');
  });
  await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve));
  const herald = await startHerald(ctx);
  try {
    const { url } = herald;
    const { token } = await herald.signUpOwner();

    const bareUrl = `http://127.0.0.1:${(bare.address() as AddressInfo).port}/`;
    const references: Load[] = [];
    const audiences: Load[] = [];
    const signin: Load[] = [];
    // One warm-up of each, so the first sample does not pay for starting the browser's processes.
    await load(browser, bareUrl, 'Ready');
    await load(browser, `${url}/`, 'No Audiences Found', token);
    for (let i = 0; i < SAMPLES; i++) {
      references.push(await load(browser, bareUrl, 'Ready'));
      audiences.push(await load(browser, `${url}/`, 'No Audiences Found', token));
      signin.push(await load(browser, `${url}/signin`, 'Sign in'));
    }
    ctx.log(`${SAMPLES} cold loads each`);
    const ref = { value: Math.round(median(references.map((l) => l.ms))), label: 'bare page, one script' };
    return [
      {
        metric: 'JS transferred, signed-in first screen (audiences)',
        value: Math.round(median(audiences.map((l) => l.jsBytes)) / 1024),
        unit: 'kB',
        bar: { op: '<=', target: 400, of: 'value', source: WEB_BAR },
      },
      {
        metric: 'JS transferred, sign-in page',
        value: Math.round(median(signin.map((l) => l.jsBytes)) / 1024),
        unit: 'kB',
        bar: { op: '<=', target: 400, of: 'value', source: WEB_BAR },
      },
      {
        metric: 'signed-in first screen usable, p50 (cold cache)',
        value: Math.round(median(audiences.map((l) => l.ms))),
        unit: 'ms',
        reference: ref,
        bar: { op: '<=', target: 1500, of: 'value', source: WEB_BAR },
      },
      {
        metric: 'sign-in page usable, p50 (cold cache)',
        value: Math.round(median(signin.map((l) => l.ms))),
        unit: 'ms',
        reference: ref,
        bar: { op: '<=', target: 1500, of: 'value', source: WEB_BAR },
      },
    ];
  } finally {
    await browser.close();
    bare.close();
    await herald.close();
  }
}
