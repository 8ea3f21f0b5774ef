import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/schema.ts';
import type { PageWindow } from '../../db/find-page.ts';
import { findPage } from '../../db/find-page.ts';
import { escapeLike } from '../../db/sql-text.ts';

const COLUMNS = [
  'id',
  'team_id',
  'user_id',
  'name',
  'type_id',
  'message',
  'public',
  'is_default',
  'seed_key',
  'params',
  'created_at',
  'updated_at',
] as const;

export interface TemplateRow {
  id: number;
  team_id: number | null;
  user_id: number | null;
  name: string;
  type_id: string;
  message: string;
  public: boolean;
  is_default: boolean;
  seed_key: string | null;
  params: Record<string, unknown>;
  created_at: Date;
  updated_at: Date;
}

export interface TemplateValues {
  name: string;
  type_id: string;
  message: string;
  public: boolean;
  params: Record<string, unknown>;
}

/** Who reads: a team, and the member whose own private templates it may see. */
export interface Reader {
  teamId: number;
  userId: number;
}

/**
 * SMS templates. A reader sees the default templates, the team's public ones and its own private
 * ones; every write is limited to the team's own rows that are not default.
 */
export function createTemplatesRepository(db: Kysely<DB>) {
  const visible = (reader: Reader, q: Kysely<DB> | Transaction<DB> = db) =>
    q
      .selectFrom('sms_templates')
      .where((eb) =>
        eb.or([
          eb('is_default', '=', true),
          eb.and([
            eb('team_id', '=', reader.teamId),
            eb.or([eb('public', '=', true), eb('user_id', '=', reader.userId)]),
          ]),
        ]),
      );

  return {
    async findPage(
      reader: Reader,
      args: PageWindow & { search?: string; typeId?: string; defaultsMatching?: string[] },
    ): Promise<{ rows: TemplateRow[]; total: number }> {
      let q = visible(reader);
      if (args.search) {
        const pattern = `%${escapeLike(args.search)}%`;
        // Default templates are shown in the reader's language, so the service matches those itself.
        const keys = args.defaultsMatching ?? [];
        q = q.where((eb) =>
          eb.or([
            eb.and([
              eb('is_default', '=', false),
              eb.or([eb('name', 'ilike', pattern), eb('message', 'ilike', pattern)]),
            ]),
            ...(keys.length > 0 ? [eb('seed_key', 'in', keys)] : []),
          ]),
        );
      }
      if (args.typeId) q = q.where('type_id', '=', args.typeId);
      return findPage(q, (s) => s.select(COLUMNS), args) as Promise<{ rows: TemplateRow[]; total: number }>;
    },

    /** The team's attribute slugs (system ones included): what a template's placeholders may name. */
    async attributeSlugs(teamId: number): Promise<string[]> {
      const rows = await db.selectFrom('lead_attributes').select('slug').where('team_id', '=', teamId).execute();
      return rows.map((r) => r.slug);
    },

    findVisible(reader: Reader, id: number): Promise<TemplateRow | undefined> {
      return visible(reader).select(COLUMNS).where('id', '=', id).executeTakeFirst() as Promise<
        TemplateRow | undefined
      >;
    },

    insert(reader: Reader, values: TemplateValues): Promise<TemplateRow> {
      return db
        .insertInto('sms_templates')
        .values({
          team_id: reader.teamId,
          user_id: reader.userId,
          ...values,
          params: JSON.stringify(values.params),
        })
        .returning(COLUMNS)
        .executeTakeFirstOrThrow() as Promise<TemplateRow>;
    },

    /** Updates one of the team's own templates this reader sees; undefined when there is none. */
    update(reader: Reader, id: number, values: TemplateValues): Promise<TemplateRow | undefined> {
      return db
        .updateTable('sms_templates')
        .set({ ...values, params: JSON.stringify(values.params), updated_at: new Date() })
        .where('id', '=', id)
        .where('team_id', '=', reader.teamId)
        .where('is_default', '=', false)
        .where((eb) => eb.or([eb('public', '=', true), eb('user_id', '=', reader.userId)]))
        .returning(COLUMNS)
        .executeTakeFirst() as Promise<TemplateRow | undefined>;
    },

    async delete(reader: Reader, id: number): Promise<boolean> {
      const result = await db
        .deleteFrom('sms_templates')
        .where('id', '=', id)
        .where('team_id', '=', reader.teamId)
        .where('is_default', '=', false)
        .where((eb) => eb.or([eb('public', '=', true), eb('user_id', '=', reader.userId)]))
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
  };
}

export type TemplatesRepository = ReturnType<typeof createTemplatesRepository>;
