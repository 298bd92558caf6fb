import type { FunctionComponent } from 'preact';
import { AuditPage } from './pages/audit.js';
import { OverviewPage } from './pages/overview.js';
import { MAIL_READ, MailPage } from './pages/mail.js';
import { ServicePage } from './pages/service.js';
import { TokensPage } from './pages/tokens.js';
import { UsersPage } from './pages/users.js';
import { WebhooksPage } from './pages/webhooks.js';
import type { Session } from './session.js';

/** What every page is given. */
export interface PageProps {
  readonly session: Session;
  /** Forgets the session and shows the sign-in form: for a page that deleted the token signed in with. */
  readonly forgetSession: () => void;
}

export interface ConsolePage {
  /** Its name in the navigation and its heading. */
  readonly name: string;
  /** Its place after `#` in the address (`/console#/tokens`): the server serves one page, the hash picks this one. */
  readonly path: string;
  /**
   * The permission a token must hold (wildcards count) for the page to be listed, or a list of
   * which any one will do; null: everyone signed in.
   */
  readonly permission: string | readonly string[] | null;
  readonly component: FunctionComponent<PageProps>;
}

/**
 * The console's pages, in the order of the navigation. A page is one file under pages/ and one
 * line here; the navigation shows each page only to a token that holds its permission.
 */
export const PAGES: readonly ConsolePage[] = [
  { name: 'Overview', path: '/', permission: null, component: OverviewPage },
  { name: 'Tokens', path: '/tokens', permission: null, component: TokensPage },
  { name: 'Users', path: '/users', permission: 'Users::Read', component: UsersPage },
  { name: 'Audit', path: '/audit', permission: null, component: AuditPage },
  { name: 'Webhooks', path: '/webhooks', permission: 'Webhooks::Manage', component: WebhooksPage },
  { name: 'Mail', path: '/mail', permission: ['Mail::Send', MAIL_READ], component: MailPage },
  { name: 'Service', path: '/service', permission: 'System::Metrics', component: ServicePage },
];
