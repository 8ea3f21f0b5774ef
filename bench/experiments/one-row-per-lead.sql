-- bench/README.md "The floor" (decision 009): what a million leads cost to write if each
-- lead were one row with its values in a jsonb document (no lead_values, no search index), against a
-- bare insert of the same rows and a trigram index over the same text built afterwards.
-- Runs in a scratch schema and drops it at the end:
--
--   psql postgres://postgres@127.0.0.1:5432/test -f bench/experiments/one-row-per-lead.sql
--
-- Needs pg_trgm (migration 0003 installs it in the `public` schema).
\timing on
drop schema if exists herald_exp cascade;
create schema herald_exp;
set search_path = herald_exp, public;

-- The shape of `bench import`'s CSV: phone, e-mail and three more columns.
create table src as
  select g as n, '+38050' || lpad((g::bigint * 7919 % 10000000)::text, 7, '0') as phone,
    'user' || g || '@example.com' as email, 'Name ' || g as name, 'City ' || (g % 500) as city,
    'Company ' || (g % 9000) as company
  from generate_series(1, 1000000) g;

\echo 'heap only, no index, no document'
create table bare (id bigint generated always as identity, team_id bigint not null, source_id bigint not null,
  list_id bigint not null, status text not null default 'active', duplicates int not null default 0,
  created_at timestamptz not null default now(), updated_at timestamptz not null default now(), phone text);
insert into bare (team_id, source_id, list_id, phone) select 1, 1, 1, phone from src;

\echo 'one row per lead: the leads indexes of today plus (team, phone) for duplicates, values as jsonb'
create table leads (id bigint generated always as identity primary key, team_id bigint not null,
  source_id bigint not null, list_id bigint not null, status text not null default 'active',
  duplicates int not null default 0, created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(), phone text, vals jsonb not null);
create index on leads (team_id, id desc);
create index on leads (list_id, id desc);
create index on leads (source_id, created_at);
create index on leads (team_id, duplicates);
create index on leads (team_id, phone);
insert into leads (team_id, source_id, list_id, phone, vals)
  select 1, 1, 1, phone, jsonb_build_object('1', phone, '2', email, '3', name, '4', city, '5', company) from src;

\echo 'fragment search over the same text, one document a lead, index built after the rows'
create table docs (lead_id bigint primary key, doc text);
insert into docs select id, lower(concat_ws(' ', vals ->> '1', vals ->> '2', vals ->> '3', vals ->> '4', vals ->> '5')) from leads;
create index on docs using gin (doc gin_trgm_ops);

drop schema herald_exp cascade;
