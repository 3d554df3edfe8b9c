/**
 * Live charts of a queue or the computer (issue 9): messages in and out per second, and the depth, over the
 * last five minutes, drawn by uPlot. Colours follow the light or dark theme.
 */
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { formatCount } from '../format/format.js';
import { chartData } from './chart-data.js';
import { useTraffic } from './use-traffic.js';

function cssVar(name: string, fallback: string): string {
  const value = getComputedStyle(document.documentElement).getPropertyValue(name).trim();
  return value || fallback;
}

/** An axis in the theme's colours; no label (uPlot reserves room for any label, even an empty one). */
function axis(): uPlot.Axis {
  const text = cssVar('--muted', '#6b6b6b');
  const grid = cssVar('--border', '#c8c8c8');
  return { stroke: text, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid, width: 1 }, size: 36 };
}

/**
 * Whole-number steps for the value axis (1, 2, 5, 10, 20, 50, …): counts and rates are drawn as whole numbers,
 * and uPlot's default half steps on a small scale came out as "0, 1, 1".
 */
const WHOLE_STEPS = Array.from({ length: 10 }, (_, power) => [1, 2, 5].map((m) => m * 10 ** power)).flat();

/** Epoch seconds as the local "17:06:30" (seconds left out on the minute). */
function clockTime(seconds: number): string {
  const date = new Date(seconds * 1000);
  const pad = (n: number) => String(n).padStart(2, '0');
  const hm = `${pad(date.getHours())}:${pad(date.getMinutes())}`;
  return date.getSeconds() === 0 ? hm : `${hm}:${pad(date.getSeconds())}`;
}

/** One uPlot chart that follows its data and its container's width. */
function Chart({
  title,
  series,
  x,
  values,
  height = 140,
}: {
  title: string;
  series: Array<{ label: string; color: string }>;
  x: number[];
  values: number[][];
  height?: number;
}) {
  const box = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);

  useEffect(() => {
    const element = box.current;
    if (!element) return undefined;
    const chart = new uPlot(
      {
        title,
        width: Math.max(200, element.clientWidth),
        height,
        scales: { x: { time: true }, y: { range: (_u, _min, max) => [0, Math.max(1, max * 1.1)] } },
        // Clock times as the rest of the console writes them (24-hour, local), not uPlot's US date stamps.
        axes: [
          { ...axis(), space: 64, values: (_u, ticks) => ticks.map((t) => clockTime(t)) },
          { ...axis(), size: 48, incrs: WHOLE_STEPS, values: (_u, ticks) => ticks.map((v) => formatCount(v)) },
        ],
        series: [{}, ...series.map((s) => ({ label: s.label, stroke: s.color, width: 1.5, points: { show: false } }))],
        // The legend names the series; values show on hover only where the cursor is.
        legend: { show: true, live: false },
        cursor: { drag: { x: false, y: false } },
      },
      [[], ...series.map(() => [])],
      element,
    );
    plot.current = chart;
    const resize = new ResizeObserver(() => chart.setSize({ width: Math.max(200, element.clientWidth), height }));
    resize.observe(element);
    return () => {
      resize.disconnect();
      chart.destroy();
      plot.current = null;
    };
    // The chart is built once per title; data arrives through setData below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [title, height]);

  useEffect(() => {
    plot.current?.setData([x, ...values]);
  }, [x, values]);

  return <div ref={box} className="traffic-chart" role="img" aria-label={title} />;
}

/** The rate and depth charts of a queue (path) or the computer (null). */
export function TrafficCharts({ computer, path, caption }: { computer: string; path: string | null; caption: string }) {
  const { traffic, error } = useTraffic(computer, path);
  if (!traffic) return <p className="muted">{error ?? 'Reading traffic…'}</p>;
  const data = chartData(traffic);
  const sum = (v: number[]) => v.reduce((a, b) => a + b, 0);
  const last = (v: number[]) => v[v.length - 1] ?? 0;
  return (
    <section className="traffic" aria-label={`Traffic of ${caption}`}>
      <p className="traffic-facts" role="status">
        Last 5 minutes: {formatCount(sum(data.incoming))} in, {formatCount(sum(data.outgoing))} out; now{' '}
        {formatCount(last(data.incoming))}/s in, {formatCount(last(data.outgoing))}/s out, depth{' '}
        {formatCount(last(data.depth))}.
      </p>
      <Chart
        title="Messages per second"
        x={data.x}
        values={[data.incoming, data.outgoing]}
        series={[
          { label: 'In', color: cssVar('--select-strong', '#0078d7') },
          { label: 'Out', color: cssVar('--ack', '#1b7f3b') },
        ]}
      />
      <Chart
        title={path === null ? 'Depth (messages on this computer)' : 'Depth (messages in the queue)'}
        x={data.x}
        values={[data.depth]}
        series={[{ label: 'Depth', color: cssVar('--pending', '#8a5a00') }]}
      />
      {error && <p className="dialog-error">{error}</p>}
    </section>
  );
}
