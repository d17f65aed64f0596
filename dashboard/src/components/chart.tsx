import { useEffect, useRef } from 'preact/hooks';
import type uPlot from 'uplot';

export interface ChartSeries {
  label: string;
  values: number[];
}

/** Series colours come from the stylesheet, so the chart follows light and dark mode. */
function palette(): string[] {
  const style = getComputedStyle(document.documentElement);
  return [1, 2, 3, 4, 5, 6].map((n) => style.getPropertyValue(`--chart-${n}`).trim() || '#2563eb');
}

const axisColour = () => getComputedStyle(document.documentElement).getPropertyValue('--muted').trim() || '#555';

interface ChartProps {
  days: string[];
  series: ChartSeries[];
  height?: number;
}

function draw(UPlot: typeof uPlot, element: HTMLElement, props: ChartProps): uPlot {
  const colours = palette();
  const axis = axisColour();
  return new UPlot(
    {
      width: Math.max(element.clientWidth, 200),
      height: props.height ?? 220,
      legend: { show: false },
      cursor: { show: true, drag: { x: false, y: false } },
      tzDate: (ts) => UPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
      scales: { y: { range: (_u, _min, max) => [0, Math.max(max, 1) * 1.1] } },
      axes: [
        { stroke: axis, grid: { stroke: 'rgba(128,128,128,0.2)' } },
        { stroke: axis, grid: { stroke: 'rgba(128,128,128,0.2)' } },
      ],
      series: [
        {},
        ...props.series.map((series, i) => ({
          label: series.label,
          stroke: colours[i % colours.length],
          width: 2,
          points: { show: props.days.length <= 31 },
        })),
      ],
    },
    [props.days.map((day) => Date.parse(`${day}T00:00:00Z`) / 1000), ...props.series.map((s) => s.values)],
    element,
  );
}

/**
 * A line chart of values per UTC day. It is a picture for sighted readers: a table with
 * the same numbers always sits beside it, so the canvas is hidden from screen readers.
 */
export function DailyChart(props: ChartProps) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    let plot: uPlot | null = null;
    let resize: ResizeObserver | null = null;
    let live = true;
    void import('uplot').then(({ default: UPlot }) => {
      if (!live) return;
      plot = draw(UPlot, element, props);
      const drawn = plot;
      resize = new ResizeObserver(() =>
        drawn.setSize({ width: Math.max(element.clientWidth, 200), height: props.height ?? 220 }),
      );
      resize.observe(element);
    });
    return () => {
      live = false;
      resize?.disconnect();
      plot?.destroy();
    };
  }, [props.days, props.series, props.height]);

  const colours = typeof document === 'undefined' ? [] : palette();
  return (
    <figure class="chart" aria-hidden="true">
      <div ref={box} />
      {props.series.length > 1 && (
        <ul class="legend">
          {props.series.map((series, i) => (
            <li key={series.label}>
              <span class={`swatch swatch-${(i % colours.length) + 1}`} />
              {series.label}
            </li>
          ))}
        </ul>
      )}
    </figure>
  );
}
