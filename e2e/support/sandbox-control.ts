/**
 * @module
 * Steers a sandbox of the stack through its control API (`/__sandbox/*`, `X-Sandbox-Control`): a price
 * change for one offer, the provisioning path of an account's next orders, its clock moved forward, its faults.
 */
import { expect } from '@playwright/test';
import { type SandboxHandle, stackUrls } from './stack-urls';

/** A sandbox's control API. */
export class SandboxControl {
  constructor(private readonly sandbox: SandboxHandle) {}

  private async post(path: string, body: unknown, method = 'POST'): Promise<unknown> {
    const response = await fetch(`${this.sandbox.url}/__sandbox${path}`, {
      method,
      headers: { 'Content-Type': 'application/json', 'X-Sandbox-Control': this.sandbox.controlSecret },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    expect(response.ok, `sandbox control ${path} answered ${response.status}: ${text}`).toBe(true);
    return JSON.parse(text);
  }

  /** Gives one offer a new pricing version: quotes made before it now fail with `price_changed`. */
  bumpPricing(offerId: string): Promise<unknown> {
    return this.post('/pricing/bump', { offerId });
  }

  /** Moves the sandbox's time forward by `ms`: quotes expire and orders progress as if it had passed. */
  advanceClock(ms: number): Promise<unknown> {
    return this.post('/clock/advance', { ms });
  }

  /**
   * Replaces the sandbox's fault rules (docs/sandbox.md): a `latency` rule holds the matching requests that long
   * (inside their idempotency claim), `times` of them. Only the `faults` sandbox's widgets meet them.
   */
  setFaults(
    rules: {
      kind: 'latency' | 'error' | 'drop';
      method?: string;
      path?: string;
      latencyMs?: number;
      times?: number;
    }[],
  ): Promise<unknown> {
    return this.post('/faults', { rules }, 'PUT');
  }

  /** Removes every fault rule. */
  clearFaults(): Promise<unknown> {
    return this.post('/faults', undefined, 'DELETE');
  }

  /** The next `count` orders of a seeded account take this provisioning path. */
  scenario(
    account: keyof ReturnType<typeof stackUrls>['accounts'],
    scenario: 'provisioning_failed' | 'slow_provisioning' | 'normal',
    count = 1,
  ): Promise<unknown> {
    return this.post('/scenarios', { accountId: stackUrls().accounts[account], scenario, count });
  }
}
