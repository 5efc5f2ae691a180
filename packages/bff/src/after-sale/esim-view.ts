/**
 * @module
 * "My eSIM": one eSIM as its traveller sees it when they come back — the plan bought, data used and left,
 * the dates, whether it is installed, top-up status and offers at retail prices, and the post-sale actions —
 * from the upstream eSIM detail, its actions and its top-up offers. Installation data again only while the
 * eSIM is not installed.
 */
import type {
  EsimDetail,
  EsimInstallationView,
  EsimTopUpView,
  EsimView,
  Locale,
  Plan,
} from '@esim-embed/shared';
import { assertNotInstalled, installationData, isInstalled, readEsim } from '../checkout/esim-detail';
import { ApiError } from '../errors';
import type { Logger } from '../logger';
import type { WidgetRuntime } from '../widgets/widget-runtime';

/** The plan the eSIM was bought with, at the widget's retail price; null when it cannot be read. */
async function boughtPlan(
  widget: WidgetRuntime,
  esim: EsimDetail,
  locale: Locale,
  logger: Logger,
): Promise<Plan | null> {
  try {
    const order = await widget.upstream.getOrder(esim.order.id);
    return await widget.catalog.offerPlan(order.offer, order.product, locale);
  } catch (error) {
    logger.warn('the plan of an eSIM could not be read', {
      esimId: esim.id,
      code: error instanceof ApiError ? error.code : 'internal',
    });
    return null;
  }
}

/** Top-up status and offers; an upstream that does not answer is `temporarily_unavailable`, retryable. */
async function topUpView(widget: WidgetRuntime, esimId: string, locale: Locale): Promise<EsimTopUpView> {
  // The upstream's capabilities say top-ups cannot be reached (`supplyOperations` top_up): none is offered.
  if (!(await widget.catalog.fitness()).offersTopUps)
    return { status: 'not_enabled', retryable: false, offers: [] };
  let page: Awaited<ReturnType<WidgetRuntime['upstream']['getTopUpOffers']>>;
  try {
    page = await widget.upstream.getTopUpOffers(esimId);
  } catch (error) {
    if (error instanceof ApiError && error.code === 'upstream_unavailable') {
      return { status: 'temporarily_unavailable', retryable: true, offers: [] };
    }
    throw error;
  }
  const offers: Plan[] = [];
  if (page.meta.status === 'available') {
    for (const offer of page.data) {
      const plan = await widget.catalog.offerPlan(offer, null, locale);
      if (plan !== null) offers.push(plan);
    }
  }
  return { status: page.meta.status, retryable: page.meta.retryable, offers };
}

/** The traveller's view of one eSIM. */
export async function esimView(
  widget: WidgetRuntime,
  esimId: string,
  locale: Locale,
  logger: Logger,
): Promise<EsimView> {
  const esim = await readEsim(widget, esimId);
  const [plan, actions, topUp] = await Promise.all([
    boughtPlan(widget, esim, locale, logger),
    widget.upstream.getEsimActions(esim.actionsUrl),
    topUpView(widget, esim.id, locale),
  ]);
  const { usage, activation } = esim;
  return {
    esimId: esim.id,
    iccid: esim.iccid,
    state: esim.state,
    profileState: esim.profileState,
    serviceState: esim.serviceState,
    installed: isInstalled(esim),
    plan,
    usage: {
      totalMb: usage.totalMb === null ? null : Math.max(0, usage.totalMb),
      usedMb: usage.usedMb,
      remainingMb: usage.remainingMb === null ? null : Math.max(0, usage.remainingMb),
      status: usage.status,
      observedAt: usage.observedAt,
    },
    activation: {
      activatedAt: activation.activatedAt,
      deadlineAt: activation.deadlineAt,
      serviceExpiresAt: activation.serviceExpiresAt,
    },
    topUp,
    actions: actions.actions.map(({ type, availability, access }) => ({ type, availability, access })),
    createdAt: esim.createdAt,
  };
}

/** Installation data again, only while the eSIM is not installed. */
export async function esimInstallation(widget: WidgetRuntime, esimId: string): Promise<EsimInstallationView> {
  const esim = await readEsim(widget, esimId);
  assertNotInstalled(esim);
  return { esimId: esim.id, ...installationData(esim) };
}
