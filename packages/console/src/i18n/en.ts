/**
 * @module
 * English messages: the reference table. `{name}` is replaced by a parameter; a plural message picks its form
 * with `Intl.PluralRules` from the parameter `n`.
 */
export const en = {
  appName: 'eSIM Embed console',
  loading: 'Loading…',
  skipToContent: 'Skip to content',
  language: 'Language',
  theme: 'Theme',
  themeAuto: 'As the system',
  themeLight: 'Light',
  themeDark: 'Dark',
  navigation: 'Console sections',
  signedInAs: 'Signed in as {name} ({role})',
  signOut: 'Sign out',
  roleViewer: 'viewer',
  roleSupport: 'support',
  roleAdmin: 'admin',

  signInHeading: 'Sign in',
  userName: 'User name',
  password: 'Password',
  totpCode: 'Code from your authenticator app',
  totpHint: 'Six digits, changing every 30 seconds.',
  signIn: 'Sign in',
  signInFailed: 'The name, password or code is not right.',
  signInLocked: 'Too many failed attempts. Try again in a few minutes.',
  sessionEnded: 'Your session ended. Please sign in again.',

  navSales: 'Sales',
  navWebhooks: 'Webhooks',
  navMoney: 'Money & sales',
  navUsers: 'Users',
  navAudit: 'Audit log',

  errorGeneric: 'Something went wrong ({code}). Try again; if it persists, tell your administrator.',
  errorForbidden: 'Your role does not allow this.',
  errorNotFound: 'Not found.',
  retry: 'Try again',
  more: 'More',
  none: 'None',
  cancel: 'Cancel',
  done: 'Done.',
};
