/** What other families and library users may use of facts and quotes: its use cases, what they take and answer, its ports and its permissions. */
export type { ContentEntry, ContentInput, ContentKind } from './content.js';
export type { Feed, LiveContent, Provenance, RandomContent, Served } from './content-queries.js';
export type { ImportContent, ImportProgress, ImportReport, LineOutcome } from './import-content.js';
export type { ContentListing, ContentPage, ListContent } from './list-content.js';
export type { ImportFile, ImportFormat, ImportRecord } from './import-file.js';
export type { ManageContent } from './manage-content.js';
export type {
  AuthorCount,
  CategoryCount,
  ContentPageQuery,
  ContentFilter,
  ContentSource,
  ContentStore,
  ImportFileReader,
  SourceResult,
} from './ports.js';
export { ContentPermission } from './permissions.js';
