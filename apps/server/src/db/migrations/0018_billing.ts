import { type Kysely, sql } from 'kysely';

// Money (decision 016). `users.balance` (0001: bigint minor units, CHECK >= 0) is the one figure a
// charge changes, with one conditional UPDATE; every change of it writes a `transactions` row in the
// same statement or transaction, so the ledger of a user always sums to their balance. A retried
// charge carries the same idempotency key and finds its row (UNIQUE per user). Payment orders are
// written before the checkout opens, and their status moves once, in the transaction that credits.
export async function up(db: Kysely<unknown>): Promise<void> {
  // The team's money is in one currency, shown on every member (spec: User.balance_currency).
  await sql`alter table teams add column balance_currency text not null default 'UAH'
    check (balance_currency in ('UAH', 'USD', 'EUR'))`.execute(db);
  // Who refills a member with auto-refill: the owner or admin who last shared with them.
  await sql`alter table users add column balance_refill_from bigint references users (id) on delete set null`.execute(
    db,
  );

  await sql`create table transactions (
    id bigint generated always as identity primary key,
    team_id bigint not null references teams (id) on delete cascade,
    user_id bigint not null references users (id) on delete cascade,
    type text not null check (type in ('top_up', 'subscribe_payment', 'share_balance', 'auto_share_balance',
      'sent_single_message', 'sent_message', 'lookup')),
    amount bigint not null,
    name text,
    count integer not null default 1,
    free_parts integer not null default 0 check (free_parts >= 0),
    idempotency_key text not null,
    order_id text,
    meta jsonb,
    created_at timestamptz not null default now(),
    unique (user_id, idempotency_key)
  )`.execute(db);
  await sql`create index transactions_user_idx on transactions (user_id, created_at desc, id desc)`.execute(db);
  // Free SMS used in a period are summed from here (the usage of the plan's free-sms-limit).
  await sql`create index transactions_free_sms_idx on transactions (team_id, created_at) where free_parts > 0`.execute(
    db,
  );

  await sql`create table payment_orders (
    id bigint generated always as identity primary key,
    order_id text not null unique,
    team_id bigint not null references teams (id) on delete cascade,
    user_id bigint not null references users (id) on delete cascade,
    purpose text not null check (purpose in ('top_up', 'subscription')),
    plan_id bigint,
    amount bigint not null check (amount > 0),
    currency text not null check (currency in ('UAH', 'USD', 'EUR')),
    status text not null default 'pending' check (status in ('pending', 'paid', 'declined')),
    provider_status text,
    payment_id text,
    created_at timestamptz not null default now(),
    settled_at timestamptz,
    check ((purpose = 'subscription') = (plan_id is not null))
  )`.execute(db);
  await sql`create index payment_orders_team_idx on payment_orders (team_id, created_at)`.execute(db);

  // The sandbox checkout's own key pair, made on the first start without LiqPay keys; one row,
  // shared by every process of the deployment.
  await sql`create table checkout_keys (
    id smallint primary key check (id = 1),
    public_key text not null,
    private_key text not null,
    created_at timestamptz not null default now()
  )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table checkout_keys`.execute(db);
  await sql`drop table payment_orders`.execute(db);
  await sql`drop table transactions`.execute(db);
  await sql`alter table users drop column balance_refill_from`.execute(db);
  await sql`alter table teams drop column balance_currency`.execute(db);
}
