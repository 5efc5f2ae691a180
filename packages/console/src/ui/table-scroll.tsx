/**
 * @module
 * A table that may be wider than a phone's screen: it scrolls sideways inside its own box, which the keyboard can
 * reach (a scrolling box nobody can focus is unreadable without a mouse) and which is named for screen readers;
 * and the console's lists as such tables, their column headings given once.
 */
import type { ComponentChildren } from 'preact';
import * as controls from './controls.css';

/** The scrolling box around a table; `label` names it (the table's heading). */
export function TableScroll({ label, children }: { label: string; children: ComponentChildren }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a box that scrolls must be reachable to scroll it by keyboard
    // biome-ignore lint/a11y/useSemanticElements: a fieldset groups form controls; this groups a table's scrolling
    <div class={controls.tableScroll} tabIndex={0} role="group" aria-label={label}>
      {children}
    </div>
  );
}

/**
 * A list as a table in its scrolling box: `columns` are its column headings, `children` its rows; `caption` (read
 * by screen readers only) and `chart` (the chart the table gives the numbers of) when it has them.
 */
export function DataTable({
  label,
  columns,
  caption,
  chart,
  children,
}: {
  label: string;
  columns: readonly ComponentChildren[];
  caption?: string;
  chart?: string;
  children: ComponentChildren;
}) {
  return (
    <TableScroll label={label}>
      <table data-chart={chart}>
        {caption !== undefined && <caption class={controls.visuallyHidden}>{caption}</caption>}
        <thead>
          <tr>
            {columns.map((column, index) => (
              <th key={index} scope="col">
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </TableScroll>
  );
}
