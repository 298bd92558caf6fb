import * as E from 'fp-ts/lib/Either.js';
import { actorHolds, actorUser, type Actor } from '../../../domain/identity/actor.js';
import { invalidInput, type DomainError, type OutageError } from '../../../domain/errors.js';
import { orOutage } from '../../../domain/outage.js';
import type { Clock, Randomness } from '../../../domain/ports.js';
import {
  checkDescription,
  checkEvents,
  checkUrlForm,
  ENDPOINT_ID,
  ENDPOINT_ID_RULE,
  MAX_ENDPOINTS_PER_OWNER,
  type EndpointChanges,
  type WebhookEndpoint,
  type WebhookScope,
} from './endpoint.js';
import { WebhooksPermission } from './permissions.js';
import type { WebhookDestinations, WebhookEndpoints } from './ports.js';
import { newSigningSecret, ROTATION_OVERLAP_MS } from './signing.js';

export const WEBHOOK_STORE_DOWN: OutageError = { _tag: 'Unknown', details: 'webhook store unavailable' };

/** What an owner sees of an endpoint: everything but its secrets. Times are ISO 8601. */
export interface WebhookEndpointView {
  readonly id: string;
  readonly url: string;
  readonly events: readonly string[];
  readonly description: string | null;
  readonly scope: WebhookScope;
  readonly disabled: boolean;
  readonly createdAt: string;
  readonly updatedAt: string;
  /** Until when the secret a rotation replaced keeps signing beside the new one; null when none does. */
  readonly previousSecretUntil: string | null;
}

/** A new endpoint, the one time its secret is shown. */
export type CreatedEndpoint = WebhookEndpointView & { readonly secret: string };

/** A rotation: the new secret, shown this once, and until when the old one keeps signing. */
export interface RotatedSecret {
  readonly id: string;
  readonly secret: string;
  readonly previousSecretUntil: string;
}

export interface NewEndpointInput {
  readonly url: string;
  readonly events: readonly string[];
  readonly description?: string;
  readonly scope?: WebhookScope;
}

export interface EndpointUpdate {
  readonly url?: string;
  readonly events?: readonly string[];
  readonly description?: string | null;
  readonly disabled?: boolean;
}

export interface WebhookRules {
  /** Whether an `http:` URL is accepted (`webhooks.allowHttp`); `https:` always is. */
  readonly allowHttp: boolean;
}

const iso = (ms: number): string => new Date(ms).toISOString();

export const endpointViewOf = (endpoint: WebhookEndpoint, now: number): WebhookEndpointView => {
  const { previousUntil } = endpoint.secrets;
  return {
    id: endpoint.id,
    url: endpoint.url,
    events: endpoint.events,
    description: endpoint.description,
    scope: endpoint.scope,
    disabled: endpoint.disabled,
    createdAt: iso(endpoint.createdAt),
    updatedAt: iso(endpoint.updatedAt),
    previousSecretUntil: previousUntil !== null && previousUntil > now ? iso(previousUntil) : null,
  };
};

/** The user an endpoint of this actor belongs to: the token's user; none for the operator. */
export const ownerOf = (actor: Actor): string | null => actorUser(actor)?.id ?? null;

const notFound = (id: string): E.Either<DomainError, never> => E.left({ _tag: 'WebhookNotFound', id });

/**
 * Registering and managing webhook endpoints. An endpoint belongs to the user who registered it;
 * anyone else's, like an unknown one, is answered as not found, so that an id tells nobody what
 * others listen with. The operator (the CLI) sees and manages every endpoint.
 */
export class ManageWebhooks {
  constructor(
    private readonly endpoints: WebhookEndpoints,
    private readonly destinations: WebhookDestinations,
    private readonly clock: Clock,
    private readonly randomness: Randomness,
    private readonly rules: WebhookRules,
  ) {}

  async create(actor: Actor, input: NewEndpointInput): Promise<E.Either<DomainError, CreatedEndpoint>> {
    const allowed = this.mayManage(actor);
    if (E.isLeft(allowed)) return allowed;
    const scope = input.scope ?? 'own';
    if (scope === 'all' && !actorHolds(actor, WebhooksPermission.WebhooksAll))
      return E.left({ _tag: 'NotAuthorized', permission: WebhooksPermission.WebhooksAll });
    const events = checkEvents(input.events);
    if (E.isLeft(events)) return events;
    const description = input.description === undefined ? E.right(null) : checkDescription(input.description);
    if (E.isLeft(description)) return description;
    const url = await this.checkUrl(input.url);
    if (E.isLeft(url)) return url;
    const owner = ownerOf(actor);
    const held = await orOutage(this.endpoints.listOwnedBy(owner), WEBHOOK_STORE_DOWN);
    if (E.isLeft(held)) return held;
    if (held.right.length >= MAX_ENDPOINTS_PER_OWNER)
      return E.left({
        _tag: 'Conflict',
        details: `A user may hold at most ${MAX_ENDPOINTS_PER_OWNER} webhook endpoints; delete one first`,
      });
    const now = this.clock.now();
    const secret = newSigningSecret(this.randomness);
    const endpoint: WebhookEndpoint = {
      id: this.randomness.uuid(),
      ownerUserId: owner,
      url: url.right,
      events: events.right,
      description: description.right,
      scope,
      secrets: { current: secret, previous: null, previousUntil: null },
      disabled: false,
      failingSince: null,
      createdAt: now,
      updatedAt: now,
    };
    const stored = await orOutage(this.endpoints.insert(endpoint), WEBHOOK_STORE_DOWN);
    if (E.isLeft(stored)) return stored;
    return E.right({ ...endpointViewOf(endpoint, now), secret });
  }

  /** The actor's own endpoints, newest first; every endpoint for the operator. */
  async list(actor: Actor): Promise<E.Either<DomainError, readonly WebhookEndpointView[]>> {
    const allowed = this.mayManage(actor);
    if (E.isLeft(allowed)) return allowed;
    const found = await orOutage(
      actor.kind === 'operator' ? this.endpoints.listAll() : this.endpoints.listOwnedBy(ownerOf(actor)),
      WEBHOOK_STORE_DOWN,
    );
    const now = this.clock.now();
    return E.map((endpoints: readonly WebhookEndpoint[]) => endpoints.map((one) => endpointViewOf(one, now)))(found);
  }

  async info(actor: Actor, id: string): Promise<E.Either<DomainError, WebhookEndpointView>> {
    const found = await this.visible(actor, id);
    return E.map((endpoint: WebhookEndpoint) => endpointViewOf(endpoint, this.clock.now()))(found);
  }

  /** The endpoint whole, its secrets included: for the use cases that sign with them. */
  async endpoint(actor: Actor, id: string): Promise<E.Either<DomainError, WebhookEndpoint>> {
    return this.visible(actor, id);
  }

  async update(actor: Actor, id: string, update: EndpointUpdate): Promise<E.Either<DomainError, WebhookEndpointView>> {
    const found = await this.visible(actor, id);
    if (E.isLeft(found)) return found;
    const { url, events, description, disabled } = update;
    if (url === undefined && events === undefined && description === undefined && disabled === undefined)
      return E.left(invalidInput(['url', 'events', 'description', 'disabled'], 'nothing to change'));
    const checkedEvents = events === undefined ? E.right(undefined) : checkEvents(events);
    if (E.isLeft(checkedEvents)) return checkedEvents;
    const checkedDescription =
      description === undefined || description === null ? E.right(description) : checkDescription(description);
    if (E.isLeft(checkedDescription)) return checkedDescription;
    const checkedUrl = url === undefined ? E.right(undefined) : await this.checkUrl(url);
    if (E.isLeft(checkedUrl)) return checkedUrl;
    const now = this.clock.now();
    const changes: EndpointChanges = {
      url: checkedUrl.right,
      events: checkedEvents.right,
      description: checkedDescription.right,
      disabled,
      updatedAt: now,
    };
    const updated = await orOutage(this.endpoints.update(id, changes), WEBHOOK_STORE_DOWN);
    if (E.isLeft(updated)) return updated;
    return updated.right === undefined ? notFound(id) : E.right(endpointViewOf(updated.right, now));
  }

  async remove(actor: Actor, id: string): Promise<E.Either<DomainError, { readonly id: string }>> {
    const found = await this.visible(actor, id);
    if (E.isLeft(found)) return found;
    const removed = await orOutage(this.endpoints.remove(id), WEBHOOK_STORE_DOWN);
    if (E.isLeft(removed)) return removed;
    return removed.right ? E.right({ id }) : notFound(id);
  }

  /**
   * A new secret; the current one keeps signing beside it for 24 hours. A secret replaced
   * before, still in its overlap, stops at once: two secrets sign at most.
   */
  async rotateSecret(actor: Actor, id: string): Promise<E.Either<DomainError, RotatedSecret>> {
    const found = await this.visible(actor, id);
    if (E.isLeft(found)) return found;
    const now = this.clock.now();
    const secret = newSigningSecret(this.randomness);
    const previousUntil = now + ROTATION_OVERLAP_MS;
    const secrets = { current: secret, previous: found.right.secrets.current, previousUntil };
    const updated = await orOutage(this.endpoints.update(id, { secrets, updatedAt: now }), WEBHOOK_STORE_DOWN);
    if (E.isLeft(updated)) return updated;
    return updated.right === undefined
      ? notFound(id)
      : E.right({ id, secret, previousSecretUntil: iso(previousUntil) });
  }

  private mayManage(actor: Actor): E.Either<DomainError, void> {
    return actorHolds(actor, WebhooksPermission.WebhooksManage)
      ? E.right(undefined)
      : E.left({ _tag: 'NotAuthorized', permission: WebhooksPermission.WebhooksManage });
  }

  private async visible(actor: Actor, id: string): Promise<E.Either<DomainError, WebhookEndpoint>> {
    const allowed = this.mayManage(actor);
    if (E.isLeft(allowed)) return allowed;
    if (!ENDPOINT_ID.test(id)) return E.left(invalidInput('id', `id must be ${ENDPOINT_ID_RULE}`));
    const found = await orOutage(this.endpoints.find(id), WEBHOOK_STORE_DOWN);
    if (E.isLeft(found)) return found;
    const endpoint = found.right;
    if (endpoint === undefined || (actor.kind !== 'operator' && endpoint.ownerUserId !== ownerOf(actor)))
      return notFound(id);
    return E.right(endpoint);
  }

  /** The URL as given, once its form and where it leads are both allowed. */
  private async checkUrl(url: string): Promise<E.Either<DomainError, string>> {
    const form = checkUrlForm(url, this.rules.allowHttp);
    if (E.isLeft(form)) return form;
    const refusal = await this.destinations.refusalOf(form.right);
    return refusal === undefined ? E.right(url) : E.left(invalidInput('url', refusal));
  }
}
