/**
 * @module
 * The mail feature: the installation emails the BFF sends itself, through the SMTP transport of
 * `ESIM_BFF_SMTP_URL`. Its transport is known before the checkout (whose change of status queues an email); the
 * emails are built after it, since they read the checkout they follow.
 */
import type { BackgroundWork } from '../background-stop';
import type { LoadedConfig } from '../config/load-config';
import {
  createInstallationEmails,
  type InstallationEmails,
  type InstallationEmailsOptions,
} from './installation-email-sender';
import { createMailTransport, type MailTransport } from './mail-transport';

export interface MailFeatureOptions extends Omit<InstallationEmailsOptions, 'transport'> {
  /** Null: the BFF sends no email. */
  transport: MailTransport | null;
}

export interface MailFeature {
  /** Null without a mail transport. */
  installationEmails: InstallationEmails | null;
  /** The checkout's reaction to an eSIM just ready: its email queued (null: none is sent). */
  queueEmail: InstallationEmails['queueEmail'];
  /** The sender of the emails due, when there is one. */
  background: BackgroundWork[];
}

/**
 * The transport of the installation emails (null: no SMTP URL was loaded); throws when a widget sends emails and
 * there is none, so that a start never sells without the email its widget promises.
 */
export function installationMailTransport(loaded: LoadedConfig): MailTransport | null {
  const transport = loaded.smtpUrl === undefined ? null : createMailTransport(loaded.smtpUrl);
  const mailing = loaded.config.widgets
    .filter((widget) => widget.mail !== undefined)
    .map((widget) => widget.id);
  if (transport === null && mailing.length > 0) {
    throw new Error(`no SMTP URL was loaded for the installation emails of ${mailing.join(', ')}`);
  }
  return transport;
}

/** The mail feature, from its ports. */
export function createMailFeature(options: MailFeatureOptions): MailFeature {
  const { transport } = options;
  if (transport === null) return { installationEmails: null, queueEmail: async () => null, background: [] };
  const installationEmails = createInstallationEmails({ ...options, transport });
  return {
    installationEmails,
    queueEmail: (entered) => installationEmails.queueEmail(entered),
    background: [
      {
        name: 'installation emails',
        start: () => installationEmails.start(),
        close: () => installationEmails.close(),
      },
    ],
  };
}
