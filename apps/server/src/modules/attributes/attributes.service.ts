import type { TAttributeType } from '@herald/shared/attributes/attributes.schemas';
import { attributeSlug } from '@herald/shared/attributes/attribute-slug';
import { message } from '@herald/shared/common/messages';
import type { PlanLimits } from '../../db/plan-limits.ts';
import { AppError } from '../../http/app-error.ts';
import type { AttributesRepository } from './attributes.repository.ts';

/** Lead attributes: system ones (phone, email) are fixed; custom ones are the team's own. */
export function createAttributesService(repo: AttributesRepository, limits?: PlanLimits) {
  return {
    list: (teamId: number) => repo.findAll(teamId),

    /** `language` is the namer's: it reads a Cyrillic name with no letter only one language has. */
    async create(
      teamId: number,
      rows: Array<{ name: string; sort_order: number; type: TAttributeType }>,
      language: 'uk' | 'en' | 'ru' = 'uk',
    ) {
      const names = rows.map((r) => r.name.toLowerCase());
      const duplicateInRequest = names.find((n, i) => names.indexOf(n) !== i);
      if (duplicateInRequest) throw AppError.field('name', 'attribute_listed_twice', { name: duplicateInRequest });
      const existing = await repo.findByNames(teamId, names);
      if (existing.length > 0) throw AppError.field('name', 'attribute_exists', { name: existing[0].name });
      const prepared: Array<{ name: string; sort_order: number; type: TAttributeType; slug: string }> = [];
      for (const row of rows) {
        const base = attributeSlug(row.name, language);
        const taken = await repo.slugsLike(teamId, base);
        let slug = base;
        for (let i = 2; taken.has(slug) || prepared.some((p) => p.slug === slug); i++) slug = `${base}_${i}`;
        prepared.push({ ...row, slug });
      }
      return repo.create(teamId, prepared, (tx) =>
        limits ? limits.assertCanCreate(tx, teamId, 'attribute-limit', prepared.length) : Promise.resolve(),
      );
    },

    async update(teamId: number, id: number, patch: { name?: string; sort_order?: number }) {
      const attribute = await repo.findById(teamId, id);
      if (!attribute) throw new AppError('not_found');
      if (attribute.is_system) throw new AppError('forbidden', message('system_attribute_locked'));
      if (patch.name && patch.name.toLowerCase() !== attribute.name.toLowerCase()) {
        const clash = await repo.findByNames(teamId, [patch.name]);
        if (clash.length > 0) throw AppError.field('name', 'attribute_exists', { name: clash[0].name });
      }
      return (await repo.update(teamId, id, patch)) ?? attribute;
    },

    async delete(teamId: number, id: number) {
      const attribute = await repo.findById(teamId, id);
      if (!attribute) throw new AppError('not_found');
      if (attribute.is_system) throw new AppError('forbidden', message('system_attribute_undeletable'));
      await repo.delete(teamId, id);
    },

    /**
     * One background pass over deleted attributes' presence bits: up to 20 batches of 5,000 leads,
     * so a million leads clear in a minute or two without holding the embedded connection long.
     */
    async clearRetiredPresenceBits() {
      for (let i = 0; i < 20; i++) {
        if ((await repo.clearRetiredBits(5_000)) === 0) return;
      }
    },
  };
}

export type AttributesService = ReturnType<typeof createAttributesService>;
