// Draws compare.html's plots from DATA with uPlot (vendored, MIT).
const COLORS = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf"];
const WIDTH = Math.min(1100, window.innerWidth - 60);

function series(names) {
  return [{}].concat(names.map((n, i) => ({label: n, stroke: COLORS[i % COLORS.length], width: 2, spanGaps: false})));
}

function percentLabel(v) {
  const p = 100 * (1 - 1 / v);
  return (p >= 99 ? p.toFixed(Math.max(0, Math.round(Math.log10(v)) - 2)) : p.toFixed(0)) + "%";
}

new uPlot({
  title: "Latency (ms) by percentile, log scale to 99.999 %",
  width: WIDTH, height: 420,
  scales: {x: {time: false, distr: 3, log: 10}, y: {distr: 3, log: 10}},
  axes: [
    {label: "percentile", splits: () => [1, 10, 100, 1000, 10000, 100000],
     values: (u, splits) => splits.map(percentLabel)},
    {label: "ms"}
  ],
  series: [{label: "percentile", value: (u, v) => v == null ? "" : percentLabel(v)}].concat(
    series(DATA.spectrum.names).slice(1)),
}, [DATA.spectrum.x].concat(DATA.spectrum.y), document.getElementById("spectrum"));

for (const [id, unit] of [["throughput", "req/s"], ["p99", "ms"]]) {
  new uPlot({
    width: WIDTH, height: 300,
    scales: {x: {time: false}},
    axes: [{label: "seconds since the run's start"}, {label: unit}],
    series: [{label: "s"}].concat(series(DATA.runs).slice(1)),
  }, [DATA[id].x].concat(DATA[id].y), document.getElementById(id));
}
