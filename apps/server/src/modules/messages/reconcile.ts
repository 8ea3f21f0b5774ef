import type { MessagesDeps, SendingAdapter } from './messages.deps.ts';
import type { Dispatcher, EngineSettings } from './dispatch.ts';
import type { MessageRow } from './messages.repository.ts';
import type { SendRowsRepository } from './send-rows.repository.ts';

type Deps = MessagesDeps & { rows: SendRowsRepository; dispatcher: Dispatcher; settings: EngineSettings };

/** Unknown rows looked at per sweep: a provider is asked about each, one at a time. */
const RECONCILE_BATCH = 200;

/**
 * The sweep every node runs (decision 024). Claims whose lease ran out: not yet called → pending
 * (sent later, the charge replayed by its key), called → unknown. Unknown rows are reconciled by
 * asking the provider where it can be asked (Twilio's Messages list, the simulator by our key);
 * one still unproven after the deadline is sent again only through a provider that dedupes by our
 * key, and otherwise stays unknown and gets its charge back. A report naming the row (`?m=`)
 * reconciles it too, on the report path.
 */
export function createSweep(deps: Deps) {
  const { db, rows, dispatcher, settings } = deps;

  /**
   * Asks the provider about each called row: `found` (it has it), `absent` (it said it has none).
   * A row it could not be asked about now is neither: the next sweep asks again.
   */
  async function askProvider(adapter: SendingAdapter, list: MessageRow[], gatewayId: number) {
    const found = new Map<number, { providerMessageId: string; status: MessageRow['status'] }>();
    const absent = new Set<number>();
    if (!adapter.findSent) return { found, absent };
    const taken = new Set<string>();
    for (const row of list) {
      if (!row.called_at) continue;
      try {
        // A sid another row holds is that row's message (same phone, same text): ask again without it.
        for (let tries = 0; tries < 5; tries++) {
          const hit = await adapter.findSent({
            to: row.phone,
            text: row.text,
            idempotencyKey: `msg-${row.id}`,
            calledAt: new Date(row.called_at),
            exclude: taken,
          });
          if (!hit) {
            absent.add(Number(row.id));
            break;
          }
          taken.add(hit.providerMessageId);
          // The row's own sid (another node reconciled it meanwhile) is found all the same.
          if ((await rows.boundProviderIds(gatewayId, [hit.providerMessageId], Number(row.id))).size > 0) continue;
          found.set(Number(row.id), hit);
          break;
        }
      } catch {
        // The provider could not be asked now.
      }
    }
    return { found, absent };
  }

  async function reconcile() {
    const unknown = await rows.unknownRows(RECONCILE_BATCH);
    const byGateway = new Map<string, MessageRow[]>();
    for (const row of unknown) {
      const key = `${row.team_id}:${row.gateway_id ?? ''}`;
      byGateway.set(key, [...(byGateway.get(key) ?? []), row]);
    }
    const deadline = Date.now() - settings.unknownDeadlineMs;
    for (const list of byGateway.values()) {
      const teamId = Number(list[0].team_id);
      const gatewayId = list[0].gateway_id === null ? null : Number(list[0].gateway_id);
      let adapter: SendingAdapter | null = null;
      if (gatewayId !== null) {
        try {
          adapter = (await deps.gateways.adapter(teamId, gatewayId)).adapter;
        } catch {
          adapter = null;
        }
      }
      const { found, absent } =
        adapter && gatewayId !== null
          ? await askProvider(adapter, list, gatewayId)
          : { found: new Map(), absent: new Set<number>() };
      if (found.size > 0) {
        const settled = await dispatcher.settle(
          [...found].map(([id, hit]) => ({
            id,
            state: 'submitted' as const,
            providerMessageId: hit.providerMessageId,
            status: hit.status,
          })),
          new Map(),
          [],
        );
        await dispatcher.publishSingles(settled);
      }
      // Unproven past the deadline: the provider said it has none, or cannot be asked at all; one that
      // failed to answer gets three deadlines (an answer of its own may still be on its way).
      const since = (r: MessageRow) => new Date(r.called_at ?? r.updated_at).getTime();
      const overdue = list.filter(
        (r) =>
          !found.has(Number(r.id)) &&
          ((since(r) < deadline && (absent.has(Number(r.id)) || !adapter?.findSent)) ||
            since(r) < Date.now() - 3 * settings.unknownDeadlineMs),
      );
      // Proven unsent by a provider that dedupes by our key: the same key again cannot send twice.
      const again = adapter?.capabilities.dedupesByKey ? overdue : [];
      for (const row of again) await rows.requeueUnknown(Number(row.id));
      const lost = overdue.filter((r) => !again.includes(r));
      if (lost.length > 0) {
        // Only rows still unknown: another node's sweep, asking meanwhile, may have found one sent
        // (then its sid is bound and this sweep's own ask came back empty).
        const refunded = await db.transaction().execute(async (tx) => {
          const still = await rows.stillUnknown(
            tx,
            lost.map((r) => Number(r.id)),
          );
          await dispatcher.refund(tx, still, 'unknown_after_deadline');
          return still;
        });
        const users = [...new Set(refunded.filter((r) => r.user_id !== null).map((r) => Number(r.user_id)))];
        if (users.length > 0) await deps.announce(teamId, users);
      }
    }
  }

  return async function sweep() {
    const moved = await rows.expire();
    await dispatcher.publishSingles(moved);
    await reconcile();
  };
}
