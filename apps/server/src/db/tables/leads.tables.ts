import type { ColumnType, Generated } from 'kysely';
import type { TAttributeType } from '@herald/shared/attributes/attributes.schemas';
import type { TLeadStatus } from '@herald/shared/leads/leads.schemas';

type CreatedAt = ColumnType<Date, Date | string | undefined, never>;
type UpdatedAt = ColumnType<Date, Date | string | undefined, Date | string>;
type Activity = 'active' | 'inactive';

export interface LeadAttributesTable {
  id: Generated<number>;
  team_id: number;
  name: string;
  slug: string;
  type: TAttributeType;
  sort_order: number;
  is_system: Generated<boolean>;
  /** Its bit in `leads.value_mask`, given by a trigger; null past a team's 63rd (migration 0007). */
  presence_bit: Generated<number | null>;
  created_at: CreatedAt;
}

/** A deleted attribute's presence bit, until no lead of its team holds it (migration 0007). */
export interface LeadPresenceBitsRetiredTable {
  team_id: number;
  bit: number;
}

export interface SourcesTable {
  id: Generated<number>;
  team_id: number;
  name: string;
  status: Generated<Activity>;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export interface ListsTable {
  id: Generated<number>;
  team_id: number;
  source_id: number;
  name: string;
  status: Generated<Activity>;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export interface LeadsTable {
  id: Generated<number>;
  team_id: number;
  source_id: number;
  list_id: number;
  status: Generated<TLeadStatus>;
  duplicates: Generated<number>;
  looked_up: Generated<boolean>;
  verified: Generated<boolean>;
  /** Bits of the attributes the lead has a value of (migration 0007); kept by triggers and imports. */
  value_mask: Generated<string>;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export interface LeadCountsTable {
  team_id: number;
  source_id: number;
  list_id: number;
  day: string;
  total: number;
  duplicate: number;
  flagged: number;
  blacklisted: number;
  looked_up: number;
  verified: number;
}

export interface LeadValuesTable {
  id: Generated<number>;
  team_id: number;
  lead_id: number;
  attribute_id: number;
  type: TAttributeType;
  value: string;
  status_label: string | null;
  carrier_name: string | null;
  carrier_type: string | null;
  clicked: boolean | null;
  ban: boolean | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export interface DiffEntry {
  action: string;
  lead_attribute_name: string | null;
  lead_attribute_value: string | null;
  value_from: string | null;
  value_to: string | null;
  /** A message's entry: the message, whose sender, gateway, parts and cost the Timeline shows. */
  message_id?: number;
}

export interface LeadLogsTable {
  id: Generated<number>;
  team_id: number;
  lead_id: number;
  user_id: number | null;
  type: string;
  action: string;
  filename: string | null;
  diff_log: ColumnType<DiffEntry[], string, string>;
  /** An imported lead's creation: the import, and its values in the import's column order (0010). */
  import_file_id: number | null;
  import_values: ColumnType<Array<string | null> | null, never, never>;
  created_at: CreatedAt;
}

export interface ValidationTemplatesTable {
  team_id: number;
  kind: string;
  values: string;
  updated_at: UpdatedAt;
}

export interface LeadsTables {
  lead_attributes: LeadAttributesTable;
  lead_presence_bits_retired: LeadPresenceBitsRetiredTable;
  sources: SourcesTable;
  lists: ListsTable;
  leads: LeadsTable;
  lead_counts: LeadCountsTable;
  lead_values: LeadValuesTable;
  lead_logs: LeadLogsTable;
  validation_templates: ValidationTemplatesTable;
}
