// Table types, one file per area, gathered here because tables reference each other.
import type { AccountsTables } from './tables/accounts.tables.ts';
import type { BillingTables } from './tables/billing.tables.ts';
import type { DemoTables } from './tables/demo.tables.ts';
import type { GatewaysTables } from './tables/gateways.tables.ts';
import type { AlphaNamesTables } from './tables/alpha-names.tables.ts';
import type { ImportsTables } from './tables/imports.tables.ts';
import type { LeadsTables } from './tables/leads.tables.ts';
import type { PlatformTables } from './tables/platform.tables.ts';
import type { PlansTables } from './tables/plans.tables.ts';
import type { SegmentsTables } from './tables/segments.tables.ts';
import type { TemplatesTables } from './tables/templates.tables.ts';
import type { MessagesTables } from './tables/messages.tables.ts';
import type { ShortLinksTables } from './tables/short-links.tables.ts';
import type { JobsTables } from './tables/jobs.tables.ts';
import type { MessageReportsTables } from './tables/message-reports.tables.ts';
import type { CampaignsTables } from './tables/campaigns.tables.ts';
import type { LookupsTables } from './tables/lookups.tables.ts';
import type { CampaignStatisticsTables } from './tables/campaign-statistics.tables.ts';

export interface DB
  extends PlatformTables,
    AccountsTables,
    LeadsTables,
    ImportsTables,
    SegmentsTables,
    PlansTables,
    BillingTables,
    DemoTables,
    GatewaysTables,
    TemplatesTables,
    AlphaNamesTables,
    MessagesTables,
    ShortLinksTables,
    JobsTables,
    MessageReportsTables,
    CampaignsTables,
    LookupsTables,
    CampaignStatisticsTables {}
