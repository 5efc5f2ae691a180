/**
 * @module
 * English messages of the after-sale views (manage link, "my eSIM", top-up offers, help): the reference
 * table. Loaded with those lazy views, so the first screen does not carry them.
 */

export const afterSaleEn = {
  manageLinkHeading: 'Come back to this eSIM',
  manageLinkIntro:
    'Keep this link to check your data, top up or get help later. Anyone with the link can open this eSIM, so keep it private.',
  manageLinkLabel: 'Link to your eSIM',
  manageLinkCopy: 'Copy link',
  manageLinkShare: 'Share link',
  manageLinkShow: 'Show link',
  manageLinkValidUntil: 'The link works until {time}.',
  manageLinkFailed: 'The link back to this eSIM could not be created. Your eSIM is not affected.',
  manageLinkInvalid: 'This link has expired or is no longer valid. Please contact {brand} for a new one.',

  helpHeading: 'Need help?',
  helpInstallFailed: 'The installation failed',
  helpNotWorking: 'The eSIM is not working',
  helpInstallFailedAdvice:
    'Check that the phone is online and supports eSIM, then try the QR code or the manual details again. If it still fails, {brand} can help.',
  helpNotWorkingAdvice:
    'Turn on the eSIM and data roaming for it, then restart the phone. If it still does not work, {brand} can help.',
  helpEmail: 'Email {email}',

  myEsimHeading: 'My eSIM',
  planUnknown: 'The plan’s details are not available.',
  usageHeading: 'Data',
  usageMeterLabel: 'Data used',
  usageUsedOfTotal: '{used} used of {total}',
  usageLeft: '{left} left',
  usageUsedUnlimited: '{used} used (unlimited plan)',
  usageFresh: 'Updated {time}.',
  usageStale: 'Last known figures, from {time}: they may be behind.',
  usageStaleUndated: 'Last known figures: they may be behind.',
  usageUnavailable: 'Data usage cannot be shown right now. This does not affect your connection.',
  datesHeading: 'Dates',
  activatedAt: 'Activated',
  notActivated: 'Not activated yet',
  activateBy: 'Install and activate by',
  validUntil: 'Valid until',
  stateExpired: 'This plan has expired.',
  stateDepleted: 'All the data has been used.',
  stateRevoked: 'This eSIM is no longer active.',
  notInstalled: 'This eSIM is not installed yet.',
  showInstallation: 'Show the installation',

  topUpIntro: 'Add data to this eSIM:',
  topUpChoose: 'Add',
  topUpChooseLabel: 'Add {plan}, {price}',
  topUpNone: 'No top-ups are offered for this eSIM right now.',
  topUpNotSupported: 'This eSIM cannot be topped up. To stay connected, buy a new eSIM.',
  topUpNotEnabled: '{brand} does not offer top-ups for this eSIM.',
  topUpCompatibilityUnverified:
    'We cannot yet confirm that a top-up works with this eSIM, so none is offered. Please check again later.',
  topUpTemporarilyUnavailable: 'Top-ups are temporarily unavailable. Please check again in a few minutes.',
  topUpProfileIneligible:
    'This eSIM cannot take a top-up in its current state (for example, expired or not installed).',
  checkAgain: 'Check again',
  toppedUp: 'Your top-up is on the eSIM. The figures may take a few minutes to catch up.',
};
