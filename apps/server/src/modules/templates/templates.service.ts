import { type TPageQuery, pageMeta } from '@herald/shared/common/pagination.schemas';
import { DEFAULT_TEMPLATES } from '@herald/shared/templates/default-templates';
import { unknownPlaceholders, writtenPlaceholders } from '@herald/shared/templates/render';
import type {
  TSmsTemplate,
  TSmsTemplateType,
  ZSaveSmsTemplateRequest,
} from '@herald/shared/templates/templates.schemas';
import type { z } from 'zod';
import { message } from '@herald/shared/common/messages';
import { AppError } from '../../http/app-error.ts';
import { pageArgs } from '../../http/paging.ts';
import type { Language } from '../../http/request-language.ts';
import type { Reader, TemplateRow, TemplatesRepository } from './templates.repository.ts';

const ORDERABLE = ['created_at', 'name', 'type_id'] as const;
type SaveRequest = z.infer<typeof ZSaveSmsTemplateRequest>;

/** A row as the API shows it: a default template in the reader's language. */
function toTemplate(row: TemplateRow, language: Language): TSmsTemplate {
  const seeded = row.seed_key ? DEFAULT_TEMPLATES[row.seed_key] : undefined;
  const [name, text] = seeded ? seeded[language] : [row.name, row.message];
  return {
    id: Number(row.id),
    name,
    type_id: row.type_id as TSmsTemplateType,
    message: text,
    public: row.public,
    default: row.is_default,
    params: { redirect_to: (row.params.redirect_to as string | undefined) ?? null },
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

function valuesOf(body: SaveRequest) {
  return {
    name: body.name,
    type_id: body.type_id,
    message: body.message,
    public: body.public,
    params: body.params.redirect_to ? { redirect_to: body.params.redirect_to } : {},
  };
}

/** SMS templates: the team's own and the defaults; defaults have no actions. */
export function createTemplatesService(repo: TemplatesRepository) {
  /** Another team's template, or a colleague's private one, is not found; a default is locked. */
  async function requireOwn(reader: Reader, id: number): Promise<void> {
    const row = await repo.findVisible(reader, id);
    if (!row) throw new AppError('not_found', message('template_not_found'));
    if (row.is_default) throw new AppError('forbidden', message('default_template_locked'));
  }

  /** A template whose tag names no attribute of the team would send a blank to every lead: refused. */
  async function requireKnownPlaceholders(teamId: number, text: string): Promise<void> {
    const unknown = unknownPlaceholders(text, await repo.attributeSlugs(teamId));
    if (unknown.length > 0)
      throw AppError.field('message', 'placeholder_unknown', { placeholders: writtenPlaceholders(unknown) });
  }

  return {
    async page(reader: Reader, query: TPageQuery & { type_id?: TSmsTemplateType }, language: Language) {
      const args = pageArgs(query, ORDERABLE, { field: 'created_at', dir: 'desc' });
      const needle = args.search?.toLocaleLowerCase();
      const defaultsMatching = needle
        ? Object.entries(DEFAULT_TEMPLATES)
            .filter(([, t]) => t[language].some((text) => text.toLocaleLowerCase().includes(needle)))
            .map(([key]) => key)
        : undefined;
      const { rows, total } = await repo.findPage(reader, { ...args, typeId: query.type_id, defaultsMatching });
      return { data: rows.map((r) => toTemplate(r, language)), meta: pageMeta(query.page, query.limit, total) };
    },

    async get(reader: Reader, id: number, language: Language): Promise<TSmsTemplate> {
      const row = await repo.findVisible(reader, id);
      if (!row) throw new AppError('not_found', message('template_not_found'));
      return toTemplate(row, language);
    },

    async create(reader: Reader, body: SaveRequest, language: Language): Promise<TSmsTemplate> {
      await requireKnownPlaceholders(reader.teamId, body.message);
      return toTemplate(await repo.insert(reader, valuesOf(body)), language);
    },

    async update(reader: Reader, id: number, body: SaveRequest, language: Language): Promise<TSmsTemplate> {
      await requireOwn(reader, id);
      await requireKnownPlaceholders(reader.teamId, body.message);
      const row = await repo.update(reader, id, valuesOf(body));
      if (!row) throw new AppError('not_found', message('template_not_found'));
      return toTemplate(row, language);
    },

    async delete(reader: Reader, id: number): Promise<void> {
      await requireOwn(reader, id);
      if (!(await repo.delete(reader, id))) throw new AppError('not_found', message('template_not_found'));
    },
  };
}

export type TemplatesService = ReturnType<typeof createTemplatesService>;
