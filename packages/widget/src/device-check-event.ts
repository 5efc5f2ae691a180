/**
 * @module
 * The `esim-device-check` event: whether the traveller's device can take an eSIM, as the widget's device check
 * (shown before the buy button) found it. Apart from `events.ts` so that it travels in the device check's lazy
 * chunk, not on the first screen; exported with the other events.
 */

/** What the device check could tell: `unknown` whenever the browser does not let the widget know. */
export type EsimDeviceVerdict = 'capable' | 'incapable' | 'unknown';

/**
 * `esim-device-check`: the widget told the traveller, before the buy button, whether this device can take an
 * eSIM. It never blocks the purchase.
 */
export interface EsimDeviceCheckDetail {
  /**
   * `capable` or `incapable`: an Android phone whose model (User-Agent Client Hints) is on the widget's list;
   * `unknown`: anything else (an iPhone, whose model the browser does not name; a computer; an unlisted model).
   */
  verdict: EsimDeviceVerdict;
  /** The device the widget runs on: a computer is not where the eSIM goes. */
  device: 'android' | 'iphone' | 'desktop' | 'other';
  /** The model the browser reported (`Pixel 8`, `SM-S918B`): Android with Client Hints only, else null. */
  model: string | null;
}

// A server runtime without `CustomEvent` must still be able to import the package: extend a stand-in there.
const CustomEventBase: typeof CustomEvent =
  globalThis.CustomEvent ?? (class {} as unknown as typeof CustomEvent);

/** Fired when the device check before the buy button has its verdict. */
export class EsimDeviceCheckEvent extends CustomEventBase<EsimDeviceCheckDetail> {
  static readonly eventName = 'esim-device-check';
  constructor(detail: EsimDeviceCheckDetail) {
    super(EsimDeviceCheckEvent.eventName, { bubbles: true, composed: true, detail });
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'esim-device-check': EsimDeviceCheckEvent;
  }
}
