/**
 * The overview's charts (issue 24 points 1, 2 and 5), drawn with uPlot (23 KB of gzip, against 149 KB for
 * @mantine/charts with recharts: docs/bundle.md), in a chunk of their own that the page loads once the figures they
 * draw are in (overview-page.tsx, `Chart`). A chart is a picture of figures that are also in a table beside it: its
 * element is one `role="img"` with a label (set by the page), and the table is what assistive technology reads.
 * Colors come from Mantine's CSS variables; the page draws the chart again when the color scheme changes.
 *
 * Framework-free on purpose: a lazy chunk that imported React or Mantine modules the first screens also use would
 * make the bundler split those modules out of the chunks every first screen loads (one more file, and bytes, each).
 *
 * - `bars`: one bar per category (`labels`, `values`; a null value is a gap, a figure not read, never a 0);
 *   `onSelect(index)` is called when a bar is clicked (the overview opens that week's contacts).
 * - `points`: values at instants (`times` in seconds since the epoch), joined by a line.
 */
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { formatCount, formatDay } from './format';

export type ChartData =
  | { kind: 'bars'; labels: string[]; values: (number | null)[]; onSelect?: (index: number) => void }
  | { kind: 'points'; times: number[]; values: number[] };

/** The value of a CSS variable on the document (Mantine's theme, in the current color scheme). */
function cssVar(name: string, fallback: string): string {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim() || fallback;
}

/** Whole numbers only on the value axis (counts). */
const countTicks = (_u: uPlot, values: number[]) => values.map((value) => (Number.isInteger(value) ? formatCount(value) : ''));
const fromZero: uPlot.Range.Function = (_u, _min, max) => [0, Math.max(1, max)];

function options(chart: ChartData, width: number, height: number): uPlot.Options {
  const text = cssVar('--mantine-color-text', '#222');
  const grid = cssVar('--mantine-color-default-border', '#ddd');
  const accent = cssVar('--mantine-primary-color-filled', '#228be6');
  const axis = (values: uPlot.Axis['values']): uPlot.Axis => ({ stroke: text, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid, width: 1 }, values });
  const base = { width, height, legend: { show: false }, cursor: { drag: { x: false, y: false } } };
  if (chart.kind === 'bars') {
    const labels = chart.labels;
    return {
      ...base,
      scales: { x: { time: false, range: [-0.5, labels.length - 0.5] }, y: { range: fromZero } },
      axes: [axis((_u, ticks) => ticks.map((tick) => labels[tick] ?? '')), axis(countTicks)],
      series: [{}, { fill: accent, stroke: accent, paths: uPlot.paths.bars!({ size: [0.7, 60] }), points: { show: false } }],
    };
  }
  return {
    ...base,
    scales: { x: { time: true }, y: { range: fromZero } },
    axes: [axis((_u, ticks) => ticks.map((tick) => formatDay(new Date(tick * 1000)))), axis(countTicks)],
    series: [{}, { stroke: accent, width: 2, points: { show: true, size: 6, fill: accent } }],
  };
}

/**
 * Draws `chart` into `element` at its width and `height` px, following the element's width; returns the function
 * that removes it.
 */
export function drawChart(element: HTMLElement, chart: ChartData, height: number): () => void {
  const xs = chart.kind === 'bars' ? chart.labels.map((_, index) => index) : chart.times;
  const plot = new uPlot(options(chart, element.clientWidth || 600, height), [xs, chart.values] as uPlot.AlignedData, element);
  const click = () => {
    const index = plot.cursor.idx;
    if (chart.kind === 'bars' && chart.onSelect && index !== null && index !== undefined && chart.values[index] !== null) chart.onSelect(index);
  };
  if (chart.kind === 'bars' && chart.onSelect) plot.over.style.cursor = 'pointer';
  plot.over.addEventListener('click', click);
  const resize = new ResizeObserver(() => plot.setSize({ width: element.clientWidth, height }));
  resize.observe(element);
  return () => {
    resize.disconnect();
    plot.over.removeEventListener('click', click);
    plot.destroy();
  };
}
