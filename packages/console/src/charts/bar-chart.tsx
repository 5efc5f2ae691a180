/**
 * @module
 * A bar chart drawn as SVG, fed by a typed series: one bar per label, its value written on it. The SVG is a
 * picture for the eye (`aria-hidden`); each chart's page puts the same numbers in a table beside it, which is
 * what a screen reader reads. Sizes come from the SVG's viewBox, so the chart scales to a 360 px screen.
 */
import * as styles from './bar-chart.css';

/** One bar: its label and its value (already a number; `text` is how the value reads). */
export interface Bar {
  readonly label: string;
  readonly value: number;
  readonly text: string;
}

const BAR_HEIGHT = 22;
const GAP = 6;
const LABEL_WIDTH = 120;
const WIDTH = 480;

/** Horizontal bars, longest value full width. */
export function BarChart({ bars }: { bars: readonly Bar[] }) {
  const largest = Math.max(1, ...bars.map((bar) => bar.value));
  const height = bars.length * (BAR_HEIGHT + GAP);
  const room = WIDTH - LABEL_WIDTH - 70;
  return (
    <svg
      class={styles.chart}
      viewBox={`0 0 ${WIDTH} ${Math.max(height, 1)}`}
      aria-hidden="true"
      focusable="false"
    >
      {bars.map((bar, index) => {
        const y = index * (BAR_HEIGHT + GAP);
        const length = Math.max(bar.value > 0 ? 2 : 0, (bar.value / largest) * room);
        return (
          <g key={bar.label}>
            <text
              class={styles.label}
              x={LABEL_WIDTH - 6}
              y={y + BAR_HEIGHT / 2}
              text-anchor="end"
              dominant-baseline="middle"
            >
              {bar.label}
            </text>
            <rect class={styles.bar} x={LABEL_WIDTH} y={y} width={length} height={BAR_HEIGHT} rx={3} />
            <text
              class={styles.value}
              x={LABEL_WIDTH + length + 6}
              y={y + BAR_HEIGHT / 2}
              dominant-baseline="middle"
            >
              {bar.text}
            </text>
          </g>
        );
      })}
    </svg>
  );
}
