/** What other families and library users may use of usage history: its use cases, what they take and answer, its port and its permissions. */
export type { ReadUsage, UsageRequest, UsageView } from './read-usage.js';
export type { UsageMeter } from './usage-meter.js';
export type { Granularity, Grouping, UsageCount, UsagePoint, UsageQuery, UsageScope } from './usage.js';
export type { UsageHistory } from './ports.js';
export { UsagePermission } from './permissions.js';
