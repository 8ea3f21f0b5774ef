import type { MailMessage, Mailer } from '../../src/mail/mailer.ts';

/**
 * A mailer that keeps what it sends in memory and, while held, does not finish sending until it
 * is released: a slow or hung SMTP server, for proving that an answer does not wait for it.
 */
export function createHeldMailer() {
  const sent: MailMessage[] = [];
  let waiting = 0;
  let gate: Promise<void> | null = null;
  let open = () => {};
  return {
    sent,
    /** Sends that have started and wait for `release`. */
    waiting: () => waiting,
    hold() {
      gate = new Promise((resolve) => {
        open = resolve;
      });
    },
    release() {
      gate = null;
      open();
    },
    mailer: {
      async send(message) {
        if (gate) {
          waiting += 1;
          await gate;
          waiting -= 1;
        }
        sent.push(message);
      },
    } satisfies Mailer,
  };
}
