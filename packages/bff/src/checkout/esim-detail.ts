/**
 * @module
 * The upstream eSIM detail as our rules read it, for the checkout that issued the eSIM and for "my eSIM" after
 * the sale: reading it, whether it is installed (installation data goes out only while it is not), and its
 * installation data as every installation answer of ours carries it.
 */
import type { EsimDetail, InstallationData } from '@esim-embed/shared';
import { ApiError } from '../errors';
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
