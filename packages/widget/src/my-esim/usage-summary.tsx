/**
 * @module
 * Data used and left, with how fresh the figures are: `fresh` (just measured, with its time), `stale` (the
 * last known figures, which may be behind) or `unavailable` (no figures; said plainly, not shown as zero).
 */
import { type EsimUsageView, formatDataSize, type Locale } from '@esim-embed/shared';
import { useWidget } from '../flow/widget-context';
import { formatDateTime } from '../i18n/formatters';
import * as controls from '../ui/controls.css';
import * as css from './my-esim.css';

/** Props of `UsageSummary`. */
export interface UsageSummaryProps {
  usage: EsimUsageView;
}

/** The eSIM's data usage. */
export function UsageSummary({ usage }: UsageSummaryProps) {
  const { t, locale } = useWidget();
  const size = (mb: number) => formatDataSize(mb, locale);
  if (usage.status === 'unavailable') {
    return (
      <p data-usage-status="unavailable" role="status">
        {t('usageUnavailable')}
      </p>
    );
  }
  const total = usage.totalMb;
  const left = usage.remainingMb ?? (total === null ? null : Math.max(0, total - usage.usedMb));
  return (
    <div data-usage-status={usage.status}>
      {total === null ? (
        <p>{t('usageUsedUnlimited', { used: size(usage.usedMb) })}</p>
      ) : (
        <>
          <p>{t('usageUsedOfTotal', { used: size(usage.usedMb), total: size(total) })}</p>
          <UsageMeter used={usage.usedMb} total={total} locale={locale} label={t('usageMeterLabel')} />
          {left !== null && <p>{t('usageLeft', { left: size(left) })}</p>}
        </>
      )}
      <p class={controls.hint}>{freshness(usage, locale, t)}</p>
    </div>
  );
}

function freshness(usage: EsimUsageView, locale: Locale, t: ReturnType<typeof useWidget>['t']): string {
  const time = usage.observedAt ? formatDateTime(usage.observedAt, locale) : null;
  if (usage.status === 'fresh') return time ? t('usageFresh', { time }) : '';
  return time ? t('usageStale', { time }) : t('usageStaleUndated');
}

function UsageMeter({
  used,
  total,
  locale,
  label,
}: {
  used: number;
  total: number;
  locale: Locale;
  label: string;
}) {
  return (
    <meter
      class={css.meter}
      aria-label={label}
      min={0}
      max={Math.max(total, 1)}
      value={Math.min(used, total)}
      aria-valuetext={`${formatDataSize(used, locale)} / ${formatDataSize(total, locale)}`}
    />
  );
}
