import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from '@playwright/test';

/** Where the server under test writes its mail (no SMTP_URL): see playwright.config.ts. */
function mailDir(): string {
  const dataDir = process.env.HERALD_E2E_DATA_DIR;
  if (!dataDir) throw new Error('HERALD_E2E_DATA_DIR is not set; run through playwright.config.ts');
  return join(dataDir, 'mail');
}

function listMails(to: string): string[] {
  const dir = mailDir();
  let files: string[];
  try {
    files = readdirSync(dir);
  } catch {
    return [];
  }
  const safeTo = to.replace(/[^\w@.-]/g, '_');
  return files
    .filter((f) => f.endsWith('.eml') && f.endsWith(`-${safeTo}.eml`))
    .map((f) => join(dir, f))
    .sort((a, b) => statSync(a).mtimeMs - statSync(b).mtimeMs || a.localeCompare(b));
}

/** The text body of one .eml, decoded (nodemailer picks base64 or quoted-printable by content). */
export function decodeMail(raw: string): string {
  const split = raw.search(/\r?\n\r?\n/);
  const head = raw.slice(0, split);
  const body = raw.slice(split).trim();
  const encoding = /content-transfer-encoding:\s*([\w-]+)/i.exec(head)?.[1]?.toLowerCase();
  if (encoding === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (encoding === 'quoted-printable') {
    const bytes = body
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
    return Buffer.from(bytes, 'latin1').toString('utf8');
  }
  return body;
}

/**
 * Waits for the `count`-th mail to `to` and returns the path and query of its first link that
 * contains `pathPart` (e.g. `/verify-email`), ready for `page.goto`.
 */
export async function linkFromMail(to: string, pathPart: string, count = 1): Promise<string> {
  await expect.poll(() => listMails(to).length, { message: `mail #${count} to ${to}` }).toBeGreaterThanOrEqual(count);
  const files = listMails(to);
  const text = decodeMail(readFileSync(files[count - 1], 'utf8'));
  const link = text.match(/https?:\/\/\S+/g)?.find((l) => l.includes(pathPart));
  if (!link) throw new Error(`No ${pathPart} link in the mail to ${to}:\n${text}`);
  const url = new URL(link);
  return url.pathname + url.search;
}
