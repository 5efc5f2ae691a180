/**
 * @module
 * English messages of the purchase (plans, checkout, progress, installation): the reference table. Loaded with
 * those lazy steps, so the first screen (the destinations) does not carry them.
 */
import { plural } from '../plural-message';

export const purchaseEn = {
  back: 'Back',

  plansHeading: 'eSIM plans for {destination}',
  sortBy: 'Sort by',
  sortPrice: 'Price',
  sortData: 'Data',
  noPlans: 'There are no plans for this destination right now.',
  days: plural({ one: '{n} day', other: '{n} days' }),
  fiveG: '5G',
  hotspot: 'Hotspot',
  topUp: 'Top-up available',
  networks: 'Networks: {list}',
  startsPurchase: 'Validity starts at purchase',
  startsInstallation: 'Validity starts when you install it',
  startsConnection: 'Validity starts when you first connect',
  startsUnknown: 'Validity starts on activation',
  activationWindow: plural({ one: 'Activate within {n} day', other: 'Activate within {n} days' }),
  choosePlan: 'Choose',
  choosePlanLabel: 'Choose {plan}, {price}',

  checkoutHeading: 'Checkout',
  quoting: 'Holding the price for you…',
  priceHeld: 'Price held for {time}',
  requoting: 'The price hold ran out. Getting a fresh price…',
  priceChanged: 'The price has changed from {old} to {new}.',
  emailLabel: 'Email',
  /** Who sends the installation details: the upstream (platform delivery), or the partner by name. */
  emailHintPlatform: 'The installation details are emailed to this address.',
  emailHintPartner: '{brand} sends the installation details to this address.',
  emailHintPartnerOptional: 'Optional: {brand} sends a copy of the installation details here.',
  /** Nobody emails the traveller, but the partner requires the address: asked for, nothing promised. */
  emailHintRequired: 'Your email address is needed for this order.',
  emailSent: 'This order is being placed with this address.',
  /** A create kept over a reload whose session expired before it was settled (`steps/pending-create.ts`). */
  earlierPurchaseUnconfirmed:
    'An order placed earlier on this page could not be confirmed and may have gone through. Ask {brand} before buying again.',
  emailMissing: 'Enter your email address.',
  emailInvalid: 'Enter an email address like name@example.com.',
  termsConsent: 'I accept the terms and privacy policy of {brand}.',
  termsMissing: 'Accept the terms to continue.',
  /** Consent in the buy button's words: `{terms}` and `{privacy}` become the two words below, linked when the partner has the page. */
  buyConsent: 'By buying you accept the {terms} and {privacy} of {brand}.',
  consentTerms: 'terms',
  consentPrivacy: 'privacy policy',
  buy: 'Buy for {price}',
  placing: 'Placing your order…',

  paymentHeading: 'Complete your payment',
  paymentWaiting: 'Finish the payment on this page. We continue as soon as {brand} confirms it.',
  paymentWindow: 'Time left to pay: {time}',
  cancel: 'Cancel',
  progressHeading: 'Preparing your eSIM',
  statusAwaitingPayment: 'Waiting for the payment',
  statusPlacing: 'Placing the order',
  statusProvisioning: 'Issuing your eSIM',
  statusReady: 'Your eSIM is ready',
  progressPatience: 'This usually takes less than a minute.',
  progressSlow: 'This is taking longer than usual. You can keep this page open; we keep checking.',
  headingCancelled: 'Purchase cancelled',
  headingExpired: 'Time to pay ran out',
  headingFailed: 'Purchase failed',
  statusFailed: 'We could not issue your eSIM. You have not been charged for it.',
  statusExpired: 'The payment was not completed in time.',
  statusCancelled: 'The purchase was cancelled.',
  /** In `partner_confirm` the partner took the payment: it refunds, and the traveller is told who and when. */
  statusFailedRefund: 'We could not issue your eSIM. {brand} is refunding your payment now.',
  statusExpiredRefund: 'The payment was not completed in time. If any money was taken, {brand} refunds it.',
  statusCancelledRefund: 'The purchase was cancelled. If any money was taken, {brand} refunds it.',
  headingDeclined: 'Payment declined',
  paymentDeclined: 'Your payment was declined. Try another card or another way to pay.',
  paymentDeclinedAgain:
    'Your payment was declined {count} times. Try a different card or another way to pay, or contact {brand} for help.',
  paymentDeclinedLimit:
    'Your payment was declined too many times: no more attempts can be made for this purchase. Contact {brand} for help, or cancel.',
  tryAnotherCard: 'Try another card',
  buyAnother: 'Buy another eSIM',

  installHeading: 'Install your eSIM',
  installIntro:
    'Install it before you travel, on the phone you take with you. Keep it switched off until you arrive.',
  qrIntro: 'Scan this QR code with the phone’s camera:',
  /** On a phone the install links come first: the QR code is for another device. */
  qrOtherDeviceHeading: 'To install on another phone or tablet',
  qrOtherDeviceIntro: 'Scan this QR code with the other device’s camera:',
  qrLabel: 'QR code that installs the eSIM',
  installIos: 'Install on iPhone',
  installAndroid: 'Install on Android',
  manualHeading: 'Or enter it manually',
  smdpLabel: 'SM-DP+ address',
  activationLabel: 'Activation code',
  copy: 'Copy',
  copyLabel: 'Copy {what}',
  copied: '{what} copied',
  iosStepsHeading: 'On iPhone',
  iosSteps:
    'Open Settings → Mobile Service → Add eSIM.|Choose “Use QR Code” and scan the code, or tap “Enter Details Manually”.|Name the plan, keep your main line for calls, and turn on data roaming for the eSIM when you arrive.',
  androidStepsHeading: 'On Android',
  androidSteps:
    'Open Settings → Network & internet → SIMs → Add eSIM.|Scan the QR code, or choose “Enter code manually”.|Turn on the eSIM and data roaming for it when you arrive.',
  sendToPhone: 'Send to my phone',
  sendToPhoneIntro: 'On a computer? Scan this with your phone’s camera or open the link on your phone.',
  linkLabel: 'Installation link',
  linkQrLabel: 'QR code with the installation link',
  linkValidUntil: 'The link works until {time}.',

  topUpHeading: 'Top up',
  statusToppingUp: 'Adding the data to your eSIM',
  statusToppedUp: 'Your top-up is done',
  statusTopUpFailed: 'We could not add the top-up. You have not been charged for it.',
  statusTopUpFailedRefund: 'We could not add the top-up. {brand} is refunding your payment now.',
  backToMyEsim: 'Back to my eSIM',
};
