/**
 * @module
 * The gauge of widgets that sell nothing now, read from each widget's held catalog when Prometheus scrapes:
 * `bff_widget_sales_stopped{widget, reason}` is 1 while the widget refuses quotes for that reason (the upstream's
 * supply cannot be sold through the API, the retail brand is paused, not ready for live checkout, unknown, or its
 * checkout switch is off) and absent while it sells. Per instance, from what it last read upstream.
 */
import { Gauge, type Registry } from 'prom-client';

/** What the gauge reads of a widget. */
export interface SalesSource {
  config: { id: string };
  catalog: { salesStopped(): string | null };
}

/** Register the gauge on `registry`. */
export function registerSalesGauge(registry: Registry, widgets: ReadonlyMap<string, SalesSource>): void {
  new Gauge({
    name: 'bff_widget_sales_stopped',
    help: 'Widgets that sell nothing now, by widget and reason (supply_not_sellable, retail_brand_status, …); absent while selling.',
    labelNames: ['widget', 'reason'],
    registers: [registry],
    collect() {
      this.reset();
      for (const widget of widgets.values()) {
        const reason = widget.catalog.salesStopped();
        if (reason !== null) this.set({ widget: widget.config.id, reason }, 1);
      }
    },
  });
}
