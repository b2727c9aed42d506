// The profile's rating chart: Chart.js on a time axis in the ladder's zone (luxon adapter),
// drag to zoom (zoom plugin), the skill estimate's mu ± 2 sigma band on its own axis.
import { eventTime, sentence, textOf } from './history.js';

const { Chart, luxon } = globalThis;

export const FONT =
  'system-ui, "Noto Sans", "Noto Sans CJK SC", "Noto Sans CJK TC", "PingFang SC", "Microsoft YaHei", sans-serif';
Chart.defaults.font.family = FONT;

/**
 * Points oldest first: the rating before the first change (at that change's instant), then the
 * rating after each change at the event's own instant.
 */
export function chartPoints(entriesNewestFirst, player) {
  const entries = [...entriesNewestFirst].reverse();
  if (entries.length === 0) return { rating: [], low: [], high: [] };
  const first = entries[0];
  const rating = [
    { x: Date.parse(eventTime(first)), y: first.before, text: `start: ${first.before}` },
    ...entries.map((e) => ({
      x: Date.parse(eventTime(e)),
      y: e.after,
      text: textOf(sentence(e, player)),
    })),
  ];
  const withSkill = entries.filter((e) => e.skill);
  const band = (sign) =>
    withSkill.length === 0
      ? []
      : [
          {
            x: Date.parse(eventTime(withSkill[0])),
            y: withSkill[0].skill.before.mu + sign * 2 * withSkill[0].skill.before.sigma,
          },
          ...withSkill.map((e) => ({
            x: Date.parse(eventTime(e)),
            y: e.skill.after.mu + sign * 2 * e.skill.after.sigma,
          })),
        ];
  return { rating, low: band(-1), high: band(1) };
}

/** Draws (or redraws) the chart on `canvas`; Chart.getChart(canvas) finds it afterwards. */
export function drawRatingChart(canvas, entriesNewestFirst, { player, zone }) {
  Chart.getChart(canvas)?.destroy();
  const { rating, low, high } = chartPoints(entriesNewestFirst, player);
  const skill = low.length > 0;
  const when = (ms) => luxon.DateTime.fromMillis(ms, { zone }).toFormat('yyyy-LL-dd HH:mm (ZZZZ)');
  const datasets = [
    {
      label: 'rating',
      data: rating,
      borderColor: '#2f6fdd',
      backgroundColor: '#2f6fdd',
      pointRadius: rating.length > 80 ? 0 : 2.5,
      pointHoverRadius: 5,
      borderWidth: 2,
      yAxisID: 'y',
    },
  ];
  if (skill)
    datasets.push(
      {
        label: 'skill μ − 2σ',
        data: low,
        borderColor: '#d9a13b88',
        pointRadius: 0,
        borderWidth: 1,
        yAxisID: 'skill',
      },
      {
        label: 'skill estimate μ ± 2σ',
        data: high,
        borderColor: '#d9a13b88',
        backgroundColor: '#f3d9a033',
        fill: '-1',
        pointRadius: 0,
        borderWidth: 1,
        yAxisID: 'skill',
      },
    );
  return new Chart(canvas, {
    type: 'line',
    data: { datasets },
    options: {
      animation: false,
      responsive: true,
      maintainAspectRatio: false,
      interaction: { mode: 'nearest', axis: 'x', intersect: false },
      scales: {
        x: {
          type: 'time',
          adapters: { date: { zone } },
          time: { tooltipFormat: 'yyyy-LL-dd HH:mm' },
          ticks: { maxRotation: 0, autoSkipPadding: 12 },
          title: { display: true, text: `time (${zone})` },
        },
        y: { title: { display: true, text: 'rating' } },
        skill: {
          display: skill,
          position: 'right',
          grid: { drawOnChartArea: false },
          title: { display: true, text: 'skill estimate (μ ± 2σ)' },
        },
      },
      plugins: {
        // One legend entry for the band (its upper edge carries the fill).
        legend: {
          display: skill,
          labels: { filter: (item) => item.datasetIndex !== 1 },
        },
        tooltip: {
          filter: (item) => item.datasetIndex === 0,
          callbacks: {
            title: (items) => (items.length ? when(items[0].parsed.x) : ''),
            label: (item) => [item.raw.text, `rating ${item.raw.y}`],
          },
        },
        zoom: {
          zoom: {
            drag: { enabled: true, backgroundColor: '#2f6fdd22' },
            wheel: { enabled: false },
            pinch: { enabled: true },
            mode: 'x',
          },
        },
      },
    },
  });
}
