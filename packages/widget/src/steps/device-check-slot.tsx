/**
 * @module
 * Where the device check goes in the checkout step: its code and messages load only now, once a plan is
 * chosen (the first screen does not carry them), and a failed load leaves the place empty, for the check is
 * advice and never stands between the traveller and the buy button.
 */
import type { ComponentType } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import * as css from './steps.css';

const loadDeviceCheck = () => import('../device-check/device-check').then((module) => module.DeviceCheck);

/** The device check, once loaded; announced politely when it appears. */
export function DeviceCheckSlot() {
  const [DeviceCheck, setDeviceCheck] = useState<ComponentType | null>(null);
  useEffect(() => {
    let shown = true;
    loadDeviceCheck().then(
      (component) => shown && setDeviceCheck(() => component),
      () => undefined,
    );
    return () => {
      shown = false;
    };
  }, []);
  return (
    <div class={css.field} aria-live="polite">
      {DeviceCheck && <DeviceCheck />}
    </div>
  );
}
