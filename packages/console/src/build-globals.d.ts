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
  readonly actionReasons: readonly import('@esim-embed/shared').ActionReasonCode[];
  readonly manageTokenParam: string;
};
