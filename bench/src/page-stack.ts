/**
 * @module
 * What the browser sections load: a sandbox and a BFF (each in its own process) serving the widget bundle
 * and a static site, with the BFF's own origin allowed for its widgets — pages the BFF serves embed the
 * widget by script tag as a partner's page would. Also the Chromium the e2e suite drives.
 */
import type { BffConfigInput } from '@esim-embed/bff';
import { chromiumPath } from '@esim-embed/e2e/browser';
import { type BenchChild, startChild } from './child-process';
import type { BffInfo } from './servers/bff-server';
import type { SandboxInfo } from './servers/sandbox-server';
import { WIDGET_DIST } from './widget-weight';

export { CHROMIUM_ARGS } from '@esim-embed/e2e/browser';

/** A running sandbox and BFF for a browser section. */
export interface PageStack {
  bff: BenchChild<BffInfo>;
  sandbox: BenchChild<SandboxInfo>;
  chromium: string;
  stop(): Promise<void>;
}

/** Starts the sandbox, then a BFF with `config(sandboxUrl)` serving `siteRoot` and the widget bundle. */
export async function startPageStack(options: {
  config: (sandboxUrl: string) => BffConfigInput;
  env: Record<string, string>;
  siteRoot: string;
}): Promise<PageStack> {
  const chromium = chromiumPath();
  const sandbox = await startChild<SandboxInfo>('servers/sandbox-server.ts', {});
  try {
    const bff = await startChild<BffInfo>(
      'servers/bff-server.ts',
      {
        config: options.config(sandbox.info.url),
        env: options.env,
        widgetDist: WIDGET_DIST,
        siteRoot: options.siteRoot,
        allowOwnOrigin: true,
      },
      { stdout: 'ignore' },
    );
    return {
      bff,
      sandbox,
      chromium,
      async stop() {
        await bff.stop();
        await sandbox.stop();
      },
    };
  } catch (error) {
    await sandbox.stop();
    throw error;
  }
}
