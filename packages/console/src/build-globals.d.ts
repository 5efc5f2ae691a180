/**
 * @module
 * What the Vite and vitest configs define (`scripts/console-contract-defines.ts`): the console contract's values
 * the page needs, without the schemas they sit beside.
 */
declare const __CONSOLE_CONTRACT__: {
  readonly routes: Record<
    import('@esim-embed/shared/console').ConsoleRouteId,
    readonly [import('@esim-embed/shared/console').ConsoleMethod, string]
  >;
  readonly csrfHeader: typeof import('@esim-embed/shared/console').CONSOLE_CSRF_HEADER;
  readonly funnelSteps: typeof import('@esim-embed/shared/console').FUNNEL_STEPS;
  /** Each help request's reason and the least role that may give it (`HELP_REQUEST_ROLE`). */
  readonly actionReasons: readonly (readonly [
    import('@esim-embed/shared').ActionReasonCode,
    import('@esim-embed/shared/console').ConsoleRole,
  ])[];
  readonly manageTokenParam: string;
};
