/**
 * @module
 * English messages: the reference table. `{name}` is replaced by a parameter; plural messages pick their
 * form with `Intl.PluralRules` from the parameter `n`.
 */
import { plural } from './plural-message';

export const en = {
  loading: 'Loading…',
  testMode: 'Test mode',
  /** Read after the badge by screen readers only; the badge itself stays short. */
  testModeHint: ': no real purchase',
  soldBy: 'Sold by {brand}',
  support: 'Support',
  terms: 'Terms',
  privacy: 'Privacy',

  destinationsHeading: 'Where are you going?',
  searchLabel: 'Country, region or code',
  searchHint: 'Type a country in any language or its two-letter code.',
  popular: 'Popular destinations',
  countries: 'Countries',
  regions: 'Regions',
  searchResults: 'Results',
  fromPrice: 'from {price}',
  planCount: plural({ one: '{n} plan', other: '{n} plans' }),
  noResults: 'Nothing found for “{query}”. Try another spelling or the two-letter country code.',
  noDestinations: 'No destinations are available right now. Please come back later.',
  resultCount: plural({ one: '{n} destination found', other: '{n} destinations found' }),
  startOver: 'Start again',

  errorNetwork: 'You seem to be offline. We try again as soon as you are back.',
  errorBusy: 'Too many requests right now. Please wait a moment and try again.',
  errorUnavailable: 'The store is temporarily unavailable.',
  errorSession: 'Your session has expired. Please start again.',
  errorStoreClosed: 'This store is not available on this website right now.',
  errorMisconfigured:
    'This store is not set up to sell eSIMs yet. Nothing was charged. Please try again later.',
  errorRefused:
    'This request could not be completed. Nothing was charged. Please try again or contact {brand}.',
  errorNotAvailableHere: 'This store is not available on this website right now. Please contact {brand}.',
  errorPlanGone: 'This plan is no longer available. Please choose another one.',
  errorPriceChanged: 'The price has changed. Please check the new price.',
  errorQuoteExpired: 'The price hold ran out. Please check the current price.',
  errorCannotSell:
    'This purchase cannot be completed right now. You have not been charged. Please contact {brand}.',
  errorCannotSellPlan: 'This store cannot sell this plan right now. You have not been charged.',
  errorMoment: 'The store is catching up. Please try again in a moment.',
  /** A manage link of a traveller whose data the partner erased at their request (`erased`, 410). */
  errorErased:
    'The details of this eSIM were deleted at your request, so they can no longer be shown here. For help, contact {brand}.',
  errorCheckoutLost: 'We could not find this purchase. If you paid, please contact {brand}.',
  errorInvalid: 'Something you entered was not accepted. Please check it and try again.',
  errorLink: 'The link could not be created. Please try again.',
  errorGeneric: 'Something went wrong. Please try again.',
  /** An error while a checkout is under way (maybe paid): no claim that nothing was charged. */
  errorAfterPayment:
    'We cannot show your purchase right now. If you paid and get no eSIM, {brand} refunds you.',
  errorReference: 'Reference: {id}',
  retry: 'Try again',
  retryingIn: plural({ one: 'We will try again in {n} second.', other: 'We will try again in {n} seconds.' }),
  requote: 'Get the current price',
  otherPlan: 'Choose another plan',
  contactSupport: 'Contact {brand}',
};
