import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { WhatIfPlayer, WhatIfReport } from '@ranking/rating';

/** Bars of the change histogram at most. */
const BINS = 40;
/** The players the page lists, largest changes first. */
const LISTED = 25;

/** Chart.js's browser bundle, from node_modules: the page carries it, so it needs no network. */
function chartJs(): string {
  const main = createRequire(import.meta.url).resolve('chart.js');
  return readFileSync(join(dirname(main), 'chart.umd.min.js'), 'utf8');
}

export interface HistogramBin {
  readonly from: number;
  readonly to: number;
  readonly players: number;
}

/**
 * The changes counted in equal bins (at most BINS, widths in half points: ratings move in
 * whole or half points), each bin [from, to). One bin when every change is the same.
 */
export function changeHistogram(changes: readonly number[]): HistogramBin[] {
  if (changes.length === 0) return [];
  let min = Infinity;
  let max = -Infinity;
  for (const c of changes) {
    min = Math.min(min, c);
    max = Math.max(max, c);
  }
  let width = Math.max(Math.ceil(((max - min) / BINS) * 2) / 2, 0.5);
  // Bins start at a multiple of the width, so the last may spill over: widen until BINS hold all.
  while (Math.floor((max - Math.floor(min / width) * width) / width) + 1 > BINS) width += 0.5;
  const start = Math.floor(min / width) * width;
  const count = Math.floor((max - start) / width) + 1;
  const bins = Array.from({ length: count }, (_, i) => ({
    from: start + i * width,
    to: start + (i + 1) * width,
    players: 0,
  }));
  for (const c of changes) bins[Math.min(Math.floor((c - start) / width), count - 1)]!.players++;
  return bins;
}

/** Each distinct pair of ratings once: a scatter of many players draws the same dot often. */
function ratingPairs(players: readonly WhatIfPlayer[]): [number, number][] {
  const seen = new Set<string>();
  const pairs: [number, number][] = [];
  for (const { asIs, variant } of players) {
    if (asIs.rating === null || variant.rating === null) continue;
    const key = `${asIs.rating},${variant.rating}`;
    if (seen.has(key)) continue;
    seen.add(key);
    pairs.push([asIs.rating, variant.rating]);
  }
  return pairs;
}

const escapeHtml = (text: string): string =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

/** JSON that may stand inside a script element: no `<` to end it or open a comment. */
const scriptJson = (value: unknown): string => JSON.stringify(value).replace(/</g, '\\u003c');

const number = (n: number | null): string =>
  n === null ? '–' : Number.isInteger(n) ? String(n) : n.toFixed(4);

/**
 * `ranking whatif --html`: the report as one self-contained page (Chart.js inlined, no network):
 * the summary figures, the two settings, a histogram of the changes, old against new rating,
 * the largest changes and who left or entered the top.
 */
export function whatIfPage(report: WhatIfReport, source: string): string {
  const { summary } = report;
  const listed = [...report.players]
    .sort((a, b) => Math.abs(b.change) - Math.abs(a.change) || (a.player < b.player ? -1 : 1))
    .slice(0, LISTED)
    .filter((p) => p.change !== 0);
  const data = {
    histogram: changeHistogram(report.players.map((p) => p.change)),
    pairs: ratingPairs(report.players),
  };
  const figures: [string, string][] = [
    ['players', String(summary.players)],
    ['moved', String(summary.moved)],
    ['mean absolute change', number(summary.meanAbsoluteChange)],
    ['largest absolute change', number(summary.largestAbsoluteChange)],
    [
      'on the boards (as is / variant / both)',
      `${summary.ranked.asIs} / ${summary.ranked.variant} / ${summary.ranked.both}`,
    ],
    ['Kendall tau between the boards', number(summary.kendallTau)],
    [`left the top ${summary.top.size}`, String(summary.top.left.length)],
    [`entered the top ${summary.top.size}`, String(summary.top.entered.length)],
  ];
  const side = (s: WhatIfPlayer['asIs']) =>
    `${number(s.rating)} (${s.rank === null ? 'unranked' : `#${s.rank}`})`;
  const names = (ids: readonly string[]) =>
    ids.length === 0 ? 'nobody' : ids.map(escapeHtml).join(', ');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>What if: ${escapeHtml(report.ladder)}</title>
<style>
body { font: 14px/1.4 system-ui, sans-serif; margin: 2em auto; max-width: 70em; color: #222; }
table { border-collapse: collapse; margin: 1em 0; }
td, th { padding: .2em .8em; border-bottom: 1px solid #ddd; text-align: left; }
td.n { text-align: right; font-variant-numeric: tabular-nums; }
pre { background: #f6f6f6; padding: .6em; white-space: pre-wrap; word-break: break-all; }
.charts { display: grid; grid-template-columns: 1fr 1fr; gap: 2em; }
.chart { position: relative; height: 24em; }
</style>
</head>
<body>
<h1>What if: ${escapeHtml(report.ladder)}</h1>
<p>${escapeHtml(source)}: ${report.accepted.asIs} events accepted as it is, ${report.accepted.variant} under the variant.</p>
<table>${figures.map(([k, v]) => `<tr><th>${k}</th><td class="n">${v}</td></tr>`).join('')}</table>
<div class="charts">
<div><h2>Changes</h2><div class="chart"><canvas id="histogram"></canvas></div></div>
<div><h2>Rating as it is against the variant's</h2><div class="chart"><canvas id="scatter"></canvas></div></div>
</div>
<h2>Largest changes</h2>
<table><tr><th>player</th><th>as it is</th><th>variant</th><th>change</th></tr>
${listed.map((p) => `<tr><td>${escapeHtml(p.player)}</td><td class="n">${side(p.asIs)}</td><td class="n">${side(p.variant)}</td><td class="n">${number(p.change)}</td></tr>`).join('\n')}
</table>
<p>Left the top ${summary.top.size}: ${names(summary.top.left)}.</p>
<p>Entered the top ${summary.top.size}: ${names(summary.top.entered)}.</p>
<h2>Settings</h2>
<pre>as it is: ${escapeHtml(JSON.stringify(report.asIs))}
variant:  ${escapeHtml(JSON.stringify(report.variant))}</pre>
<script>${chartJs().replace(/<\/script/gi, '<\\/script')}</script>
<script type="application/json" id="data">${scriptJson(data)}</script>
<script>
(() => {
  const data = JSON.parse(document.getElementById('data').textContent);
  const common = { animation: false, maintainAspectRatio: false, plugins: { legend: { display: false } } };
  new Chart(document.getElementById('histogram'), {
    type: 'bar',
    data: {
      labels: data.histogram.map((b) => b.to - b.from === 0.5 || b.to - b.from === 1 ? String(b.from) : b.from + ' to ' + b.to),
      datasets: [{ label: 'players', data: data.histogram.map((b) => b.players), backgroundColor: '#4a7ab5', barPercentage: 1, categoryPercentage: 1 }],
    },
    options: { ...common, scales: { x: { title: { display: true, text: 'change (variant - as it is)' } }, y: { title: { display: true, text: 'players' } } } },
  });
  // A loop, not Math.min(...): a spread of a big board's ratings overflows the stack.
  let low = Infinity;
  let high = -Infinity;
  for (const [x, y] of data.pairs) {
    low = Math.min(low, x, y);
    high = Math.max(high, x, y);
  }
  new Chart(document.getElementById('scatter'), {
    type: 'scatter',
    data: {
      datasets: [
        { label: 'players', data: data.pairs.map(([x, y]) => ({ x, y })), pointRadius: 1.5, backgroundColor: '#4a7ab5' },
        { label: 'unchanged', type: 'line', data: data.pairs.length ? [{ x: low, y: low }, { x: high, y: high }] : [], borderColor: '#c44', borderWidth: 1, pointRadius: 0 },
      ],
    },
    options: { ...common, parsing: false, scales: { x: { type: 'linear', title: { display: true, text: 'as it is' } }, y: { title: { display: true, text: 'variant' } } } },
  });
  window.whatIfDrawn = true;
})();
</script>
</body>
</html>
`;
}
