import { formatCount } from '../format.ts';
import { DailyChart, type ChartSeries } from './chart.tsx';

/** A chart of loads per day with its table alternative (the same numbers, for every reader). */
export function DailyLoads(props: { caption: string; days: string[]; series: ChartSeries[] }) {
  const { days, series } = props;
  return (
    <div class="daily">
      <DailyChart days={days} series={series} />
      <details>
        <summary>{props.caption} as a table</summary>
        <div class="table-scroll">
          <table>
            <caption>{props.caption}</caption>
            <thead>
              <tr>
                <th scope="col">Day (UTC)</th>
                {series.map((s) => (
                  <th scope="col" key={s.label}>
                    {s.label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {days.map((day, i) => (
                <tr key={day}>
                  <th scope="row">{day}</th>
                  {series.map((s) => (
                    <td key={s.label} class="number">
                      {formatCount(s.values[i] ?? 0)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </div>
  );
}
