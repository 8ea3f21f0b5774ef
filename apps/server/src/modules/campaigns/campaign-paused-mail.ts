import { type Kysely, sql } from 'kysely';
import { CAMPAIGN_PAUSED_MAIL_JOB } from '@herald/shared/jobs/campaigns.jobs';
import type { DB } from '../../db/schema.ts';
import type { JobQueue } from '../../jobs/job-queue.ts';
import type { Mailer, MailMessage } from '../../mail/mailer.ts';

/**
 * The mail to the user who launched a campaign the balance paused (decision 034). Members have no
 * language of their own on record, so it speaks Ukrainian, English and Russian, as the product
 * does; with auto-refill on it says the campaign resumes by itself once the balance is raised.
 */
export function campaignPausedMail(
  to: string,
  campaign: { name: string; url: string; autoRefill: boolean },
): MailMessage {
  const { name, url, autoRefill } = campaign;
  const then = autoRefill
    ? {
        uk: 'Увімкнено автопоповнення: кампанія продовжиться сама, щойно баланс поповниться.',
        en: 'Auto-refill is on: the campaign continues by itself as soon as the balance is raised.',
        ru: 'Включено автопополнение: кампания продолжится сама, как только баланс пополнится.',
      }
    : {
        uk: 'Поповніть баланс і натисніть «Продовжити» на сторінці кампанії.',
        en: 'Top up the balance and press "Resume" on the campaign’s page.',
        ru: 'Пополните баланс и нажмите «Продолжить» на странице кампании.',
      };
  return {
    to,
    subject: `Кампанію «${name}» призупинено / Campaign "${name}" is paused`,
    text:
      `Кампанію «${name}» призупинено: на балансі бракує коштів для надсилання повідомлень. ` +
      `Уже надіслані повідомлення не зачеплено, решта чекає. ${then.uk} ${url}\n\n` +
      `The campaign "${name}" is paused: the balance is not enough to send messages. ` +
      `Messages already sent stay sent; the rest wait. ${then.en} ${url}\n\n` +
      `Кампания «${name}» приостановлена: на балансе не хватает средств для отправки сообщений. ` +
      `Уже отправленные сообщения не затронуты, остальные ждут. ${then.ru} ${url}\n`,
  };
}

/** The job that mails it, retried by the queue; sent after the pause committed. */
export async function registerCampaignPausedMail(
  jobs: Pick<JobQueue, 'register'>,
  deps: { db: Kysely<DB>; mailer: Mailer; appUrl: string },
) {
  await jobs.register(CAMPAIGN_PAUSED_MAIL_JOB, async ({ campaignId }) => {
    const r = await sql<{ name: string; email: string; auto_refill: boolean; status: string }>`
      select c.name, c.status, u.email, u.balance_auto_refill as auto_refill
      from campaigns c join users u on u.id = c.launched_by and u.team_id = c.team_id
      where c.id = ${campaignId}`.execute(deps.db);
    const row = r.rows[0];
    if (!row) return;
    const url = `${deps.appUrl.replace(/\/$/, '')}/campaigns/${campaignId}`;
    await deps.mailer.send(campaignPausedMail(row.email, { name: row.name, url, autoRefill: row.auto_refill }));
  });
}
