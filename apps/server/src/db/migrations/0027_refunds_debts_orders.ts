import { type Kysely, sql } from 'kysely';

// Refunds, reversed payments and debts, and the life of a payment order (decision 027).
// - A refund gives back what one charge took: its money (a positive amount) and its free SMS (a
//   negative `free_parts`, so the period's free-SMS usage, a sum, goes down by them).
// - A debt is what a reversed payment could not take back because it was spent. The balance stays
//   `>= 0` (its CHECK is kept); the debt is its own column, moved only together with ledger rows
//   that carry the change in `debt_change`, so `sum(debt_change)` of a user is their debt just as
//   `sum(amount)` is their balance.
// - An order records the provider's last status and when it came, is `closed` when a purchase
//   from the balance made it needless, and `reversed` when a paid one was taken back.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table transactions drop constraint transactions_type_check`.execute(db);
  await sql`alter table transactions add constraint transactions_type_check check (type in ('top_up',
    'subscribe_payment', 'share_balance', 'auto_share_balance', 'sent_single_message', 'sent_message', 'lookup',
    'refund', 'payment_reversed', 'debt_payment'))`.execute(db);
  await sql`alter table transactions drop constraint transactions_free_parts_check`.execute(db);
  await sql`alter table transactions add column debt_change bigint not null default 0`.execute(db);
  await sql`drop index transactions_free_sms_idx`.execute(db);
  await sql`create index transactions_free_sms_idx on transactions (team_id, created_at) where free_parts <> 0`.execute(
    db,
  );

  await sql`alter table users add column debt bigint not null default 0 check (debt >= 0)`.execute(db);

  await sql`alter table payment_orders drop constraint payment_orders_status_check`.execute(db);
  await sql`alter table payment_orders add constraint payment_orders_status_check
    check (status in ('pending', 'paid', 'declined', 'closed', 'reversed'))`.execute(db);
  await sql`alter table payment_orders add column provider_status_at timestamptz`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table payment_orders drop column provider_status_at`.execute(db);
  await sql`alter table payment_orders drop constraint payment_orders_status_check`.execute(db);
  await sql`alter table payment_orders add constraint payment_orders_status_check
    check (status in ('pending', 'paid', 'declined'))`.execute(db);
  await sql`alter table users drop column debt`.execute(db);
  await sql`drop index transactions_free_sms_idx`.execute(db);
  await sql`create index transactions_free_sms_idx on transactions (team_id, created_at) where free_parts > 0`.execute(
    db,
  );
  await sql`alter table transactions drop column debt_change`.execute(db);
  await sql`alter table transactions drop constraint transactions_type_check`.execute(db);
  await sql`alter table transactions add constraint transactions_type_check check (type in ('top_up',
    'subscribe_payment', 'share_balance', 'auto_share_balance', 'sent_single_message', 'sent_message', 'lookup'))`.execute(
    db,
  );
}
