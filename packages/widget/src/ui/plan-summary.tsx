/**
 * @module
 * What a plan gives, said the same way wherever it appears (the plans, the checkout, the eSIM's own view, its
 * top-up offers): its data and validity, where it works when that is not said around it, and its price.
 */
import type { Plan } from '@esim-embed/shared';
import { useWidget } from '../flow/widget-context';
import { formatPlanData } from '../i18n/formatters';
import * as css from './plan-summary.css';

/** Props of `PlanSummary`. */
export interface PlanSummaryProps {
  plan: Pick<Plan, 'dataMb' | 'dailyDataMb' | 'unlimited' | 'durationDays'>;
  /** Where the plan works, when no heading around the summary says it already. */
  destination?: { name: string; flag: string } | undefined;
  /** The price, formatted, when the summary shows one. */
  price?: string | undefined;
}

/** One line of a plan: `🇹🇷 Turkey: 1 GB · 7 days`, with the price beside it. */
export function PlanSummary({ plan, destination, price }: PlanSummaryProps) {
  const { t, locale } = useWidget();
  return (
    <div class={css.planTop}>
      <span class={css.planData}>
        {destination?.flag && <span aria-hidden="true">{destination.flag} </span>}
        {destination && `${destination.name}: `}
        {formatPlanData(plan, locale)} · {t('days', { n: plan.durationDays })}
      </span>
      {price !== undefined && (
        <span class={css.price} part="price">
          {price}
        </span>
      )}
    </div>
  );
}
