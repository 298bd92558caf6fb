import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { identifier, type Identifier } from '../domain/identifier.js';
import type { AccessChangeFeed } from '../domain/identity/access-changes.js';
import type { Health } from '../platform/http/health.js';
import type { ReferenceSection, Redirect, Route, RouteTable } from '../platform/http/route-table.js';
import type { OutboundGuard } from '../platform/upstream/outbound-guard.js';
import type { Counters } from '../platform/rate-limit/counters.js';
import type { UpstreamCallCounter } from '../platform/upstream/upstream-call.js';
import type { MemoryAuditTrail } from '../platform/audit/memory-audit-trail.js';

/**
 * Identifiers of what only the composition root and transports know about. The whole AppConfig is
 * deliberately not among them: each module is handed its own settings.
 */
export const Log = identifier<Logger>('Logger');
export const Database = identifier<Knex>('Database');
/**
 * The SQL database a family's Knex stores use, and the deadline every call of theirs keeps; null
 * on memory storage, where a family binds its in-memory stores instead.
 */
export interface SqlStorage {
  readonly db: Knex;
  /** A store whose every call answers within the database deadline, or rejects as storage unreachable. */
  inTime<Store extends object>(store: Store): Store;
}
export const SqlStorage = identifier<SqlStorage | null>('SqlStorage');
/**
 * The audit trail the in-memory stores append their entries to, in the step of their change; null
 * on SQL storage, where the Knex stores write them in their transactions.
 */
export const InMemoryAuditTrail = identifier<MemoryAuditTrail | null>('InMemoryAuditTrail');
/** The counters rate limits and the login throttle count in: this process's memory, or Redis. */
export const SharedCounters = identifier<Counters>('Counters');
export const Routes = identifier<RouteTable>('RouteTable');
/** The access-change feed of the storage alone, before any other is added beside it. */
export const StoredAccessChangeFeed = identifier<AccessChangeFeed>('StoredAccessChangeFeed');
/** `/livez` and `/readyz`, and the stop that makes readiness fail first. */
export const InstanceHealth = identifier<Health>('InstanceHealth');
/** The one OutboundGuard every connection an outside party can aim goes through. */
export const OutboundConnections = identifier<OutboundGuard>('OutboundConnections');
/** Where every family that calls an upstream reports each call, for the metrics. */
export const UpstreamCalls = identifier<UpstreamCalls>('UpstreamCalls');
export type UpstreamCalls = UpstreamCallCounter;

/** What one family adds to the HTTP route table; every family module binds one. */
export interface RouteContribution {
  /** Where the reference lists its operations: the family's name and what it is for. */
  readonly section: ReferenceSection;
  readonly routes: readonly Route[];
  readonly redirects?: readonly Redirect[];
}
export const RouteContribution = identifier<RouteContribution>('RouteContribution');

/**
 * The identifier of one family's use cases bound as a whole, what a library user receives (see
 * library.ts). It carries their type, so that the library's answer is typed from the family list
 * alone; it is a symbol like every other identifier.
 */
export type UseCasesIdentifier<UseCases> = Identifier<UseCases>;
export const useCasesIdentifier = <UseCases>(name: string): UseCasesIdentifier<UseCases> => identifier<UseCases>(name);
