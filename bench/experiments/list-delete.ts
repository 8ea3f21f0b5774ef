// Decision 007 "Duplicates": how long deleting a big list takes, with the recount of the leads left
// holding its phones, and how long the leads page (`GET /api/leads`, the team's first 50) waits
// meanwhile (the embedded page check does not queue behind a busy database, so it cannot tell).
// Seeds LEADS leads (default 200,000; 5% shared phones) in one source with two lists, then times
// `DELETE /api/sources/lists/{id}` of the first (half of the leads).
//
//   LEADS=1000000 [BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test] npm run list-delete -w @herald/bench
import type { Kysely } from 'kysely';
import type { DB } from '../../apps/server/src/db/schema.ts';
import { startHerald } from '../lib/herald.ts';
import { seedLeads } from '../lib/leads-seeder.ts';

const databaseUrl = process.env.BENCH_DATABASE_URL;
const leads = Number(process.env.LEADS ?? 200_000);
const herald = await startHerald({
  database: databaseUrl ? 'postgres' : 'embedded',
  databaseUrl,
  durationSeconds: 1,
  log: (m) => console.error(m),
});
try {
  const owner = await herald.signUpOwner();
  const db = herald.app.services.database.db as Kysely<DB>;
  const { listIds } = await seedLeads(db, { teamId: owner.teamId, leads, sources: 1, listsPerSource: 2 });
  const started = performance.now();
  let deleting = true;
  const page: number[] = [];
  const pings = (async () => {
    while (deleting) {
      const t0 = performance.now();
      const auth = { authorization: `Bearer ${owner.token}` };
      await fetch(`${herald.url}/api/leads?limit=50`, { headers: auth }).then((r) => r.arrayBuffer());
      page.push(performance.now() - t0);
      await new Promise((r) => setTimeout(r, 50));
    }
  })();
  const res = await herald.app.inject({
    method: 'DELETE',
    url: `/api/sources/lists/${listIds[0]}`,
    headers: { authorization: `Bearer ${owner.token}` },
  });
  const ms = performance.now() - started;
  deleting = false;
  await pings;
  page.sort((a, b) => a - b);
  const p99 = page[Math.min(page.length - 1, Math.floor(page.length * 0.99))];
  console.log(
    `delete a list of ~${Math.round(leads / 2).toLocaleString('en')} leads: ${res.statusCode}, ${ms.toFixed(0)} ms; ` +
      `leads page meanwhile: ${page.length} reads, p99 ${p99.toFixed(0)} ms, max ${page.at(-1)?.toFixed(0)} ms`,
  );
} finally {
  await herald.close();
}
