/**
 * @module
 * The purchase steps, one lazily loaded chunk: the plans of a destination and the checkout. The first screen
 * (the destinations) does without them; the app loads them while the traveller reads the list, or at once
 * when the `country` attribute opens a destination's plans.
 */
export { CheckoutStep, type CheckoutStepProps } from './checkout-step';
export { PlansStep, type PlansStepProps } from './plans-step';
