import * as E from 'fp-ts/lib/Either.js';
import type { Logger } from 'pino';
import { OPERATOR } from '../../../domain/identity/actor.js';
import type { SendMail } from '../../mail/domain/index.js';
import type { UserStore } from '../../users-and-tokens/domain/index.js';
import type { WebhookEndpoint } from '../domain/endpoint.js';
import type { OwnerNotices } from '../domain/ports.js';

/**
 * Mails an endpoint's owner, at the address of their account, through the mail outbox (as the
 * installation). An owner without an address, the operator's endpoints, or an outbox that
 * refuses are logged and go without.
 */
export class MailedOwnerNotices implements OwnerNotices {
  constructor(
    private readonly users: UserStore,
    private readonly sendMail: SendMail,
    private readonly logger: Logger,
  ) {}

  async endpointDisabled(endpoint: WebhookEndpoint, why: string): Promise<void> {
    try {
      const owner = endpoint.ownerUserId === null ? undefined : await this.users.findById(endpoint.ownerUserId);
      if (owner?.email == null) {
        this.logger.info(
          { endpoint: endpoint.id },
          'webhook endpoint disabled; its owner has no address to be told at',
        );
        return;
      }
      const sent = await this.sendMail.execute({
        actor: OPERATOR,
        mail: {
          to: owner.email,
          subject: 'Your webhook endpoint was disabled',
          content:
            `Your webhook endpoint {{endpointUrl}} ({{endpointId}}) was disabled: {{reason}}.\n\n` +
            'Nothing more is sent to it. Once it answers again, enable it with `PATCH /api/webhook/update` ' +
            '(`{"disabled": false}`), and send its failed deliveries again with `POST /api/webhook/redeliver`.',
          variables: { endpointUrl: endpoint.url, endpointId: endpoint.id, reason: why },
        },
      });
      if (E.isLeft(sent))
        this.logger.warn(
          { endpoint: endpoint.id, refused: sent.left._tag },
          'owner of a disabled webhook endpoint not mailed',
        );
    } catch (error) {
      this.logger.warn({ err: error, endpoint: endpoint.id }, 'owner of a disabled webhook endpoint not mailed');
    }
  }
}

/** Where no mail family is built: the owner is not told, and the log says so. */
export class LoggedOwnerNotices implements OwnerNotices {
  constructor(private readonly logger: Logger) {}

  async endpointDisabled(endpoint: WebhookEndpoint, why: string): Promise<void> {
    this.logger.info({ endpoint: endpoint.id, why }, 'webhook endpoint disabled; no mail family to tell its owner');
  }
}
