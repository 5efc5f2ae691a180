/** @module The eSIM's data used and left, as the upstream reports it now. */
import { formatDataSize } from '@esim-embed/shared';
import type { ConsoleSalePage } from '@esim-embed/shared/console';
import { useConsole } from '../app/console-context';
import * as controls from '../ui/controls.css';
import { formatDateTime } from '../ui/formatters';

/** The usage section. */
export function SaleUsage({ page }: { page: ConsoleSalePage }) {
  const { locale, t } = useConsole();
  const usage = page.esim?.usage;
  return (
    <section class={controls.card} aria-labelledby="sale-usage">
      <h2 id="sale-usage">{t('usage')}</h2>
      {!page.checkout.esimId && <p>{t('noEsim')}</p>}
      {page.esimUnavailable && <p>{t('usageUnavailable', { code: page.esimUnavailable })}</p>}
      {usage && (
        <>
          <p>
            {usage.totalMb === null
              ? t('usageUnlimited', { used: formatDataSize(usage.usedMb, locale) })
              : t('usageLine', {
                  used: formatDataSize(usage.usedMb, locale),
                  total: formatDataSize(usage.totalMb, locale),
                })}
          </p>
          {usage.totalMb !== null && (
            <meter min={0} max={usage.totalMb} value={usage.usedMb} aria-label={t('usage')} />
          )}
          {usage.observedAt && <p class={controls.muted}>{formatDateTime(usage.observedAt, locale)}</p>}
        </>
      )}
    </section>
  );
}
