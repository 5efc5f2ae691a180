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
  InstallationData,
  Locale,
  Plan,
} from '@esim-embed/shared';
import { ApiError } from '../errors';
import type { Logger } from '../logger';
import { upstreamPaths } from '../upstream/paths';
import type { WidgetRuntime } from '../widgets/widget-runtime';

/** Profile states in which the profile is on a device. */
const INSTALLED_PROFILE_STATES = new Set(['downloaded', 'installed', 'enabled', 'disabled']);
/** eSIM states in which the profile was installed (or used) at least once. */
const INSTALLED_STATES = new Set(['installed', 'active', 'depleted']);

/** Whether the profile is on a device (or was used): then the installation is not offered again. */
export function isInstalled(esim: Pick<EsimDetail, 'state' | 'profileState' | 'activation'>): boolean {
  return (
    INSTALLED_STATES.has(esim.state) ||
    INSTALLED_PROFILE_STATES.has(esim.profileState) ||
    esim.activation.activatedAt !== null
  );
}

/**
 * The one rule of every route that gives out installation data or a delivery link (checkout, my eSIM, partner):
 * only while the eSIM is not installed. Once on a device, whoever else holds the data could only take it over.
 */
export function assertNotInstalled(
  esim: Pick<EsimDetail, 'id' | 'state' | 'profileState' | 'activation'>,
): void {
  if (isInstalled(esim)) {
    throw new ApiError('invalid_transition', { params: { esimId: esim.id, reason: 'already_installed' } });
  }
}

/** Read the eSIM's detail; an unknown eSIM is `esim_not_found`. */
export async function readEsim(widget: WidgetRuntime, esimId: string): Promise<EsimDetail> {
  return await widget.upstream.getEsim(upstreamPaths.esim(esimId));
}

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

/** The upstream eSIM detail's installation data, as every installation answer of ours carries it. */
export function installationData(esim: EsimDetail): InstallationData {
  return {
    iccid: esim.iccid,
    lpa: esim.installation.lpa,
    qrPayload: esim.installation.qrPayload,
    smdpAddress: esim.installation.smdpAddress,
    activationCode: esim.installation.activationCode,
    ios: esim.installation.ios,
    android: esim.installation.android,
  };
}
