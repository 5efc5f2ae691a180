/**
 * @module
 * The installation email, sent by the BFF itself for a widget with `mail`: queued when a checkout's eSIM is ready
 * (the reaction to `ready` that also queues `esim.ready`, `checkout/checkout-transitions.ts`), on the store's work
 * queue of installation emails (partitioned by widget, leased when claimed, so a crash or a restart loses none and
 * several instances share them), sent by a background loop, tried again with backoff (1 min doubling, at most an
 * hour apart) for a day, and recorded on the checkout (`installationEmail`: status, attempts, times, last error),
 * which the partner reads and lists.
 *
 * Never twice for one checkout: the checkout's record says whether its email went. An attempt is written on it
 * before anything is sent (with a lease, so no other instance sends meanwhile) and its outcome after, and only a
 * `pending` email is ever sent. What is left: an attempt cut short between the SMTP server's acceptance and the
 * write of its outcome (a crash, a kill, the store failing in that instant) is not known to have gone, and is
 * sent again once its lease ends — under the same Message-ID, which most mailboxes show once. An attempt cut
 * before the server accepted the message's end is discarded by the server, so it is simply the next attempt.
 *
 * Never logged: the traveller's address and the email's words. The address stays on the checkout alone; the
 * queue holds the checkout id.
 *
 * Over 300 lines: the queue, the attempt and the record of one email keep the promise of never twice together;
 * its words, message and transport have files of their own.
 */

import { manageLinkFor } from '@esim-embed/shared';
import type { AfterSaleService } from '../after-sale/after-sale-service';
import { createBackgroundLoop } from '../background-loop';
import { type Backoff, backoffMs } from '../backoff';
import { type CheckoutRecord, type CheckoutRepository, checkoutSlot } from '../checkout/checkout-record';
import type { CheckoutService } from '../checkout/checkout-service';
import { parseMailbox, type WidgetMail } from '../config/config-schema';
import { ApiError } from '../errors';
import type { Logger } from '../logger';
import type { Store } from '../store/store';
import { leaveValue, versionedUpdate, writeValue } from '../store/versioned-update';
import { QUEUE_NAMES, type QueueItem } from '../store/work-queue';
import type { WidgetRuntime } from '../widgets/widget-runtime';
import { QR_CONTENT_ID, writeInstallationEmail } from './installation-email';
import { LONGEST_HANDOVER_MS, MailNotSent, type MailTransport, type OutgoingEmail } from './mail-transport';

/** The pause after a failed attempt: a minute, doubling, at most an hour. */
export const INSTALLATION_EMAIL_BACKOFF: Backoff = { firstMs: 60_000, maxMs: 60 * 60 * 1000 };
/** How long an email is tried from when it was queued before it is given up. */
export const INSTALLATION_EMAIL_RETRY_FOR_MS = 24 * 60 * 60 * 1000;
/** How long an attempt is its instance's: the reads it needs, then the longest handover to the SMTP server. */
const ATTEMPT_LEASE_MS = 60_000 + LONGEST_HANDOVER_MS;
/** Emails claimed at once, in all and of one widget, and sent at once. */
const BATCH = { limit: 20, perPartition: 10, concurrency: 4 } as const;

/** The installation email as a checkout records it. */
type EmailRecord = NonNullable<CheckoutRecord['installationEmail']>;

/** How one attempt ended: sent, given no further try (`skipped`), or failed (tried again while the span lasts). */
type AttemptOutcome = { kind: 'sent' } | { kind: 'skipped' | 'failed'; reason: string };

export interface InstallationEmailsOptions {
  store: Store;
  /** The one checkout repository: the email's record is written on its checkout. */
  repository: CheckoutRepository;
  widgets: ReadonlyMap<string, WidgetRuntime>;
  /** The installation data of a ready checkout, as the partner reads it (only while the eSIM is not installed). */
  checkouts: Pick<CheckoutService, 'partnerInstallation'>;
  /** The eSIM's manage link (the same one the install step shows). */
  afterSale: Pick<AfterSaleService, 'manageLinkForPartner'>;
  transport: MailTransport;
  logger: Logger;
  /** How often due emails are claimed. Default 5 s. */
  intervalMs?: number | undefined;
  now?: (() => number) | undefined;
}

/** The installation emails of a BFF with a mail transport. */
export interface InstallationEmails {
  /**
   * The reaction to a checkout's change of status: queues the email of an eSIM just ready (once per checkout);
   * answers the email's record on the checkout, null when none is sent.
   */
  queueEmail(entered: CheckoutRecord): Promise<EmailRecord | null>;
  /** Claim the emails due now and send them (the loop calls this; tests may too). */
  sendDue(): Promise<void>;
  start(): void;
  /** Claim nothing more; resolves once the attempts under way have stored their outcome. */
  close(): Promise<void>;
}

/** Whether a ready checkout's traveller gets the BFF's installation email. */
const emailed = (record: CheckoutRecord, widget: WidgetRuntime | undefined): widget is WidgetRuntime =>
  record.status === 'ready' &&
  record.kind === 'issue' &&
  record.email !== null &&
  widget?.config.mail !== undefined;

/** Why an attempt did not send, as the record keeps it: never an error's words (they may quote the address). */
function outcomeOf(error: unknown): AttemptOutcome {
  if (error instanceof MailNotSent) return { kind: 'failed', reason: error.reason };
  if (error instanceof ApiError) {
    const reason = typeof error.params.reason === 'string' ? error.params.reason : null;
    // Installed meanwhile, or the order ended (refunded, cancelled): its installation is no longer given out.
    if (error.code === 'invalid_transition' && reason === 'already_installed')
      return { kind: 'skipped', reason: 'already_installed' };
    if (error.code === 'esim_not_found' && reason !== 'not_issued')
      return { kind: 'skipped', reason: `esim_not_found${reason === null ? '' : ` ${reason}`}` };
    return { kind: 'failed', reason: error.code };
  }
  return { kind: 'failed', reason: 'internal' };
}

/** The {@link InstallationEmails} of a BFF. */
export function createInstallationEmails(options: InstallationEmailsOptions): InstallationEmails {
  const { store, repository, widgets, checkouts, afterSale, transport, logger } = options;
  const now = options.now ?? Date.now;
  const workQueue = store.queue(QUEUE_NAMES.installationEmails);
  let closing = false;

  /** Change the email's record on its checkout (read again on a concurrent write); null when `change` left it. */
  async function changeEmail(
    checkoutId: string,
    change: (email: EmailRecord) => EmailRecord | null,
  ): Promise<{ record: CheckoutRecord; email: EmailRecord } | null> {
    const outcome = await versionedUpdate(checkoutSlot(repository, checkoutId), (current) => {
      const email = current?.record.installationEmail ?? null;
      const next = current === null || email === null ? null : change(email);
      if (current === null || next === null) return leaveValue(null);
      const record = { ...current.record, installationEmail: next };
      return writeValue(record, { record, email: next });
    });
    if (outcome.kind === 'contended') throw new Error(`checkout ${checkoutId} kept changing; try again`);
    return outcome.kind === 'written' ? outcome.result : null;
  }

  /** The manage link in the email: the widget's page (or the origin the traveller bought from) with the token. */
  async function manageUrlOf(widget: WidgetRuntime, mail: WidgetMail, record: CheckoutRecord) {
    const esimId = record.order?.esimId ?? null;
    if (esimId === null) return null;
    try {
      const link = await afterSale.manageLinkForPartner(widget, esimId);
      return manageLinkFor(mail.manageUrl ?? `${record.origin}/`, link.manageToken, widget.config.id);
    } catch (error) {
      // The brand's white label turned the way back to an order off: the email goes without it.
      if (error instanceof ApiError && error.code === 'storefront_app_disabled') return null;
      throw error;
    }
  }

  /** The email of a ready checkout, written in its traveller's language. */
  async function compose(record: CheckoutRecord, widget: WidgetRuntime, mail: WidgetMail, to: string) {
    const installation = await checkouts.partnerInstallation(
      new Map([[widget.config.id, widget]]),
      record.id,
    );
    const manageUrl = await manageUrlOf(widget, mail, record);
    const [brand, settlement] = await Promise.all([widget.catalog.brand(), widget.catalog.settlement()]);
    const replyTo = mail.replyTo ?? brand.supportEmail ?? undefined;
    const written = await writeInstallationEmail({
      locale: record.locale,
      brand,
      plan: record.plan,
      amount: record.amount,
      wholeRubOnly: settlement.wholeRubOnly,
      installation,
      manageUrl,
      repliesReachPartner: replyTo !== undefined,
    });
    // Checked at start-up (the config's MailboxSchema).
    const from = parseMailbox(mail.from) as { name: string | null; address: string };
    const email: OutgoingEmail = {
      from: { name: from.name ?? brand.displayName, address: from.address },
      replyTo,
      to,
      subject: written.subject,
      text: written.text,
      html: written.html,
      messageId: `<installation.${record.id}@${from.address.slice(from.address.lastIndexOf('@') + 1)}>`,
      inline: [
        {
          contentId: QR_CONTENT_ID,
          filename: 'esim-qr.png',
          contentType: 'image/png',
          content: written.qrPng,
        },
      ],
    };
    return email;
  }

  /** Write how an attempt ended, and put the email back on the queue for its next try or take it off. */
  async function settle(item: QueueItem, outcome: AttemptOutcome): Promise<void> {
    const time = now();
    const settled = await changeEmail(item.id, (email) => {
      if (email.status !== 'pending') return null;
      const ended = { ...email, sendingUntilMs: null, nextAttemptAtMs: null };
      if (outcome.kind === 'sent') return { ...ended, status: 'sent', sentAtMs: time, lastError: null };
      if (outcome.kind === 'skipped') return { ...ended, status: 'skipped', lastError: outcome.reason };
      const next = time + backoffMs(email.attempts - 1, INSTALLATION_EMAIL_BACKOFF);
      const givenUp = next - email.queuedAtMs >= INSTALLATION_EMAIL_RETRY_FOR_MS;
      return givenUp
        ? { ...ended, status: 'failed', lastError: outcome.reason }
        : { ...ended, lastError: outcome.reason, nextAttemptAtMs: next };
    });
    const email = settled?.email;
    if (email?.status === 'pending' && email.nextAttemptAtMs !== null) {
      await workQueue.reschedule(item.id, email.nextAttemptAtMs);
    } else {
      await workQueue.remove(item.id);
    }
    if (email === undefined) return;
    const fields = { checkoutId: item.id, widgetId: item.partition, attempt: email.attempts };
    if (email.status === 'sent') logger.info('installation email sent', fields);
    else if (email.status === 'skipped')
      logger.info('installation email skipped', { ...fields, reason: email.lastError });
    else if (email.status === 'failed')
      logger.error('installation email given up', { ...fields, reason: email.lastError });
    else
      logger.warn('installation email not sent, will retry', {
        ...fields,
        reason: email.lastError,
        retryInMs: (email.nextAttemptAtMs ?? time) - time,
      });
  }

  /** One claimed email: sent when its checkout says it is still to send and nobody else is sending it. */
  async function sendOne(item: QueueItem): Promise<void> {
    const stored = await repository.getCheckout(item.id);
    const email = stored?.record.installationEmail ?? null;
    if (stored === null || email === null || email.status !== 'pending')
      return await workQueue.remove(item.id);
    const time = now();
    // Another instance's attempt under way, or a backoff not yet over: back on the queue until then.
    const waitUntil = Math.max(email.sendingUntilMs ?? 0, email.nextAttemptAtMs ?? 0);
    if (waitUntil > time) return await workQueue.reschedule(item.id, waitUntil);
    const widget = widgets.get(stored.record.widgetId);
    const mail = widget?.config.mail;
    // The widget's mail was taken out of the config since it was queued.
    if (widget === undefined || mail === undefined) {
      return await settle(item, { kind: 'skipped', reason: 'mail_not_configured' });
    }
    // Written before anything is sent: an attempt cut short is known, and nobody else sends until its lease ends.
    const begun = await changeEmail(item.id, (current) =>
      current.status !== 'pending' || (current.sendingUntilMs ?? 0) > time
        ? null
        : {
            ...current,
            attempts: current.attempts + 1,
            sendingUntilMs: time + ATTEMPT_LEASE_MS,
            lastAttemptAtMs: time,
          },
    );
    if (begun === null) return;
    const to = begun.record.email;
    if (to === null) return await settle(item, { kind: 'skipped', reason: 'no_address' });
    let outcome: AttemptOutcome;
    try {
      await transport.send(await compose(begun.record, widget, mail, to));
      outcome = { kind: 'sent' };
    } catch (error) {
      outcome = outcomeOf(error);
    }
    await settle(item, outcome);
  }

  async function sendDue(): Promise<void> {
    if (closing) return;
    const claimed = await workQueue.claim(now(), {
      limit: BATCH.limit,
      perPartition: BATCH.perPartition,
      leaseMs: ATTEMPT_LEASE_MS,
    });
    const workers = Array.from({ length: Math.min(BATCH.concurrency, claimed.length) }, async () => {
      for (let item = claimed.shift(); item !== undefined; item = closing ? undefined : claimed.shift()) {
        await sendOne(item).catch((error: unknown) => {
          // Its lease brings it back; the error's name only (its words might quote the address).
          logger.error('installation email attempt crashed', {
            checkoutId: item?.id,
            cause: error instanceof Error ? error.name : 'unknown',
          });
        });
      }
    });
    await Promise.all(workers);
    // Left by a stop: due again at once (at the next start, or on another instance), not when the lease ends.
    for (const item of claimed) await workQueue.reschedule(item.id, now());
  }

  const loop = createBackgroundLoop(sendDue, {
    intervalMs: options.intervalMs ?? 5_000,
    logger,
    failure: 'installation email round failed',
    level: 'error',
  });

  return {
    async queueEmail(after) {
      const widget = widgets.get(after.widgetId);
      if (!emailed(after, widget)) return null;
      const time = now();
      // Recorded on the checkout once: a reaction done again (after a crash) finds it there and queues no second.
      const outcome = await versionedUpdate(checkoutSlot(repository, after.id), (current) => {
        if (current === null) return leaveValue(null);
        const email = current.record.installationEmail;
        if (email !== null) return leaveValue(email);
        const pending: EmailRecord = {
          status: 'pending',
          attempts: 0,
          queuedAtMs: time,
          sendingUntilMs: null,
          lastAttemptAtMs: null,
          nextAttemptAtMs: null,
          sentAtMs: null,
          lastError: null,
        };
        return writeValue({ ...current.record, installationEmail: pending }, pending);
      });
      if (outcome.kind === 'contended') throw new Error(`checkout ${after.id} kept changing; try again`);
      const email = outcome.result;
      // A pending email must be on the queue, even when the add of an earlier try failed.
      if (
        email?.status === 'pending' &&
        (await workQueue.add({ id: after.id, partition: after.widgetId, dueAtMs: time }))
      ) {
        logger.info('installation email queued', { checkoutId: after.id, widgetId: after.widgetId });
        loop.runSoon();
      }
      return email;
    },
    sendDue,
    start() {
      loop.start();
    },
    async close() {
      closing = true;
      await loop.close();
    },
  };
}
