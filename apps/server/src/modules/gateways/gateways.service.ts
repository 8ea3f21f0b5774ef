import { randomBytes } from 'node:crypto';
import { englishOf, message } from '@herald/shared/common/messages';
import { GATEWAY_TYPE_INFO, gatewayCapabilities, type TGatewayType } from '@herald/shared/gateways/gateway-types';
import type { TGateway, TGatewayTestResult, ZGatewayRequest } from '@herald/shared/gateways/gateways.schemas';
import type { z } from 'zod';
import type { CredentialCipher } from '../../crypto/credentials.ts';
import { AppError } from '../../http/app-error.ts';
import type { AdapterContext, GatewayAdapter } from './adapters/gateway-adapter.ts';
import { GatewaySendError } from './adapters/gateway-adapter.ts';
import { genericHookToken } from './adapters/generic-http.ts';
import { type AdapterRegistry, PROVIDER_BASE_URLS } from './adapters/registry.ts';
import { isTelnyxPublicKey } from './adapters/telnyx.ts';
import { readGatewayFields } from './gateway-fields.ts';
import type { GatewayRow, GatewaysRepository } from './gateways.repository.ts';

type GatewayInput = z.output<typeof ZGatewayRequest>;

const WEBHOOK_TARGET_TTL_MS = 10_000;

export interface GatewaysServiceDeps {
  repo: GatewaysRepository;
  cipher: CredentialCipher;
  registry: AdapterRegistry;
  /** The app's public origin: webhook URLs are built from it, never from a request's Host. */
  appUrl: string;
  /** Base URLs from the environment, per type. */
  baseUrls: Partial<Record<TGatewayType, string>>;
  timeoutMs: number;
  now?: () => number;
}

export function createGatewaysService(deps: GatewaysServiceDeps) {
  const { repo, cipher } = deps;
  const now = deps.now ?? Date.now;

  const webhookUrl = (id: number, kind: 'status' | 'inbound') => `${deps.appUrl}/api/webhooks/gateways/${id}/${kind}`;

  function open(row: GatewayRow) {
    return cipher.decrypt(row.credentials);
  }

  function contextOf(row: GatewayRow): AdapterContext {
    const params = row.params;
    return {
      gatewayId: row.id,
      params,
      credentials: open(row),
      baseUrl: params.base_url || deps.baseUrls[row.type] || PROVIDER_BASE_URLS[row.type],
      statusUrl: webhookUrl(row.id, 'status'),
      inboundUrl: webhookUrl(row.id, 'inbound'),
      timeoutMs: deps.timeoutMs,
      now,
    };
  }

  function adapterOf(row: GatewayRow): GatewayAdapter {
    return deps.registry(row.type, contextOf(row));
  }

  function view(row: GatewayRow): TGateway {
    const secrets = open(row);
    const info = GATEWAY_TYPE_INFO[row.type];
    let status: string | null = info.capabilities.statusDelivery === 'webhook' ? webhookUrl(row.id, 'status') : null;
    if (status && row.type === 'generic_http')
      status = `${status}?token=${genericHookToken(secrets.webhook_secret ?? '')}`;
    return {
      id: row.id,
      name: row.name,
      type: row.type,
      active: row.active,
      default: row.is_default,
      allow_lookup: row.allow_lookup,
      params: row.params,
      credentials_set: info.fields.filter((f) => f.secret && secrets[f.key]).map((f) => f.key),
      capabilities: gatewayCapabilities(row.type, row.params),
      webhook_urls: { status, inbound: info.capabilities.inbound ? webhookUrl(row.id, 'inbound') : null },
      created_at: row.created_at.toISOString(),
    };
  }

  function prepare(input: GatewayInput, stored?: GatewayRow) {
    const info = GATEWAY_TYPE_INFO[input.type];
    // A change of type keeps no secret of the old one.
    const storedSecrets = stored && stored.type === input.type ? open(stored) : {};
    const { params, secrets } = readGatewayFields(input.type, input.credentials, storedSecrets);
    // A key that cannot verify would turn every callback away with a 403 and no hint: refused here.
    if (input.type === 'telnyx' && params.public_key && !isTelnyxPublicKey(params.public_key)) {
      const label = info.fields.find((f) => f.key === 'public_key')?.label ?? 'public_key';
      throw AppError.field('credentials.public_key', 'gateway_public_key_invalid', { field: label });
    }
    if (input.allow_lookup && !gatewayCapabilities(input.type, params).lookup)
      throw AppError.field('allow_lookup', 'gateway_lookup_unsupported');
    // The default is what sending picks: it must send.
    if (input.default && (!input.active || input.allow_lookup))
      throw AppError.field('default', 'gateway_default_unusable');
    // Kept across edits (even of the type), so URLs already given to a provider stay valid.
    const webhookSecret = (stored && open(stored).webhook_secret) || randomBytes(32).toString('base64url');
    return {
      name: input.name,
      type: input.type,
      active: input.active,
      is_default: input.default,
      allow_lookup: input.allow_lookup,
      params,
      credentials: cipher.encrypt({ ...secrets, webhook_secret: webhookSecret }),
    };
  }

  async function findOwn(teamId: number, id: number): Promise<GatewayRow> {
    const row = await repo.findById(teamId, id);
    if (!row) throw new AppError('not_found', message('gateway_not_found'));
    return row;
  }

  const locked = () => new AppError('validation_failed', message('gateway_default_locked'));

  /**
   * Callbacks' gateways with their opened credentials, for a few seconds: a provider posting
   * thousands of reports would otherwise cost a read and a decryption each. Edits in this process
   * drop the entry at once; another process's edit is seen within `WEBHOOK_TARGET_TTL_MS`.
   */
  const targets = new Map<number, { until: number; teamId: number; adapter: GatewayAdapter }>();

  /** The team's gateways that send: active and not lookup-only. */
  const sendingRows = async (teamId: number) =>
    (await repo.findAll(teamId)).filter((row) => row.active && !row.allow_lookup);

  return {
    webhookUrl,

    async list(teamId: number): Promise<TGateway[]> {
      return (await repo.findAll(teamId)).map(view);
    },

    /** What the single-SMS form offers: active gateways that send (not lookup-only). */
    async sendingList(teamId: number) {
      return (await sendingRows(teamId)).map((row) => ({
        id: row.id,
        name: row.name,
        type: row.type,
        default: row.is_default,
        from: row.params.from ?? row.params.from_twilio ?? row.params.from_telnyx ?? null,
      }));
    },

    /** Every gateway the team can send through is the simulator, and it has one: no carrier reviews its alpha names. */
    async sendsOnlyThroughSimulator(teamId: number): Promise<boolean> {
      const sending = await sendingRows(teamId);
      return sending.length > 0 && sending.every((row) => row.type === 'simulator');
    },

    async create(teamId: number, input: GatewayInput): Promise<TGateway> {
      return view(await repo.insert(teamId, prepare(input)));
    },

    async update(teamId: number, id: number, input: GatewayInput): Promise<TGateway> {
      const stored = await findOwn(teamId, id);
      // The spec: the default gateway's row cannot be edited; another one is made default instead.
      if (stored.is_default) throw locked();
      targets.delete(id);
      const row = await repo.update(teamId, id, prepare(input, stored));
      if (!row) throw new AppError('not_found', message('gateway_not_found'));
      return view(row);
    },

    async remove(teamId: number, id: number): Promise<void> {
      const stored = await findOwn(teamId, id);
      if (stored.is_default) throw locked();
      targets.delete(id);
      await repo.delete(teamId, id);
    },

    async testConnection(teamId: number, id: number): Promise<TGatewayTestResult> {
      const adapter = adapterOf(await findOwn(teamId, id));
      try {
        await adapter.testConnection();
        return { ok: true, code: 'gateway_connected', message: englishOf({ code: 'gateway_connected' }) };
      } catch (error) {
        if (!(error instanceof GatewaySendError)) throw error;
        const code =
          error.reason === 'auth'
            ? 'gateway_auth_failed'
            : error.reason === 'timeout' || error.reason === 'network'
              ? 'gateway_unreachable'
              : error.reason === 'rejected'
                ? 'gateway_rejected'
                : 'gateway_provider_error';
        return { ok: false, code, message: englishOf({ code }), detail: error.message };
      }
    },

    /** For the sending side (messages, lookups): a team's gateway and its adapter. */
    async adapter(teamId: number, id: number): Promise<{ gateway: TGateway; adapter: GatewayAdapter }> {
      const row = await findOwn(teamId, id);
      return { gateway: view(row), adapter: adapterOf(row) };
    },

    /** A callback's gateway, whatever its team (the callback carries no session). */
    async webhookTarget(id: number): Promise<{ teamId: number; adapter: GatewayAdapter } | null> {
      const cached = targets.get(id);
      if (cached && cached.until > now()) return cached;
      const row = await repo.findAnyTeam(id);
      if (!row) {
        targets.delete(id);
        return null;
      }
      const target = { until: now() + WEBHOOK_TARGET_TTL_MS, teamId: row.team_id, adapter: adapterOf(row) };
      targets.set(id, target);
      return target;
    },
  };
}

export type GatewaysService = ReturnType<typeof createGatewaysService>;
