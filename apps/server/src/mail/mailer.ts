import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Transporter } from 'nodemailer';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

/**
 * SMTP when `SMTP_URL` is set; otherwise each message is written as an .eml file under
 * `DATA_DIR/mail/` and its subject and links are logged, so every flow works offline.
 */
export function createMailer(options: {
  smtpUrl?: string;
  from: string;
  dataDir: string;
  log: { info(obj: object, msg: string): void };
}): Mailer {
  const { smtpUrl, from, dataDir, log } = options;
  // nodemailer is loaded with the first message, not at start: most starts send no mail, and
  // loading it was a tenth of a second of every start (decision 023).
  let transporter: Promise<Transporter> | undefined;
  const transport = () => {
    transporter ??= import('nodemailer').then(({ default: nodemailer }) =>
      smtpUrl
        ? nodemailer.createTransport(smtpUrl)
        : nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' }),
    );
    return transporter;
  };
  if (smtpUrl) {
    return {
      async send(message) {
        await (await transport()).sendMail({ from, ...message });
      },
    };
  }
  const folder = join(dataDir === ':memory:' ? join(process.cwd(), 'data') : dataDir, 'mail');
  let seq = 0;
  return {
    async send(message) {
      const info = await (await transport()).sendMail({ from, ...message });
      await mkdir(folder, { recursive: true });
      const safeTo = message.to.replace(/[^\w@.-]/g, '_');
      const file = join(folder, `${Date.now()}-${process.pid}-${seq++}-${safeTo}.eml`);
      await writeFile(file, info.message as Buffer);
      const links = message.text.match(/https?:\/\/\S+/g) ?? [];
      log.info({ to: message.to, subject: message.subject, links, file }, 'mail written to file (no SMTP_URL)');
    },
  };
}
