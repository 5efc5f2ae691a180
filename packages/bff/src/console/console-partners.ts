/**
 * @module
 * Which partner a console user belongs to: the widgets one partner secret opens (what the partner API scopes by),
 * or a widget without a partner secret alone. A partner is named by its first widget in the config's order; a
 * user's record keeps that id, and any widget of the partner finds the partner again.
 */
import type { ConsoleWidget } from '@esim-embed/shared/console';
import type { WidgetRuntime } from '../widgets/widget-runtime';

/** One partner: its id and the widgets everything it sees in the console belongs to. */
export interface ConsolePartner {
  id: string;
  widgets: ReadonlyMap<string, WidgetRuntime>;
}

/** The partner `widgetId` belongs to, or null when no such widget is configured. */
export function partnerOf<W extends Pick<WidgetRuntime, 'partnerSecret'> = WidgetRuntime>(
  widgets: ReadonlyMap<string, W>,
  widgetId: string,
): { id: string; widgets: ReadonlyMap<string, W> } | null {
  const named = widgets.get(widgetId);
  if (named === undefined) return null;
  const secret = named.partnerSecret;
  const members = new Map<string, W>();
  for (const [id, widget] of widgets) {
    if (id === widgetId || (secret !== undefined && widget.partnerSecret === secret)) members.set(id, widget);
  }
  return { id: [...members.keys()][0] ?? widgetId, widgets: members };
}

/** The widgets as the console's session lists them. */
export const consoleWidgets = (partner: ConsolePartner): ConsoleWidget[] =>
  [...partner.widgets.values()].map((widget) => ({
    id: widget.config.id,
    displayName: widget.config.displayName,
    environment: widget.config.environment,
  }));

/** Whether any of the partner's widgets sells for real (`live`): then an admin needs a second factor. */
export const partnerIsLive = (partner: ConsolePartner): boolean =>
  [...partner.widgets.values()].some((widget) => widget.config.environment === 'live');
