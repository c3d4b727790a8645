// Generates the TA-Lib C golden files used by the finance/market parity
// tests. TA-Lib C 0.6.0-dev comes from npm talib@1.1.6 (built from source).
//
// Run OUTSIDE the repository (node_modules must never be committed):
//
//   mkdir /tmp/talibgen && cd /tmp/talibgen
//   cp <repo>/finance/market/testdata/gen/package.json .
//   npm install talib@1.1.6
//   npm install-scripts approve talib && npm rebuild talib   # npm 11 blocks install scripts
//   node <repo>/finance/market/testdata/gen/talib.js <repo>/finance/market/testdata
//
// It writes talib_indicators.json and talib_patterns.json: the seeded
// synthetic inputs and TA-Lib's outputs, aligned to the input, with null in
// the warm-up slots (before TA-Lib's begIndex).
'use strict';
const fs = require('fs');
const path = require('path');
const talib = require('talib');

const outDir = process.argv[2];
if (!outDir) {
  console.error('usage: node talib.js <output dir>');
  process.exit(2);
}

// mulberry32: a small seeded PRNG, so the inputs are reproducible.
function rng(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const normal = () => {
    let u = 0;
    while (u === 0) u = next();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * next());
  };
  return { next, normal };
}

// 9 significant digits keep the file small; the values are then the exact
// inputs of both TA-Lib and the Go tests.
const round = (x) => Number(x.toPrecision(9));

// walk builds a geometric random walk of OHLCV bars with volatility bursts,
// optional opening gaps and an optional constant drift per bar.
function walk({ seed, n, start, vol, drift = 0, gapEvery = 0, gapSize = 0, swingEvery = 0 }) {
  const r = rng(seed);
  const o = [], h = [], l = [], c = [], v = [];
  let prev = start;
  for (let i = 0; i < n; i++) {
    const burst = (Math.floor(i / 100) % 4 === 3) ? 2.5 : 1;
    const s = vol * burst;
    let open = prev * Math.exp(s * 0.3 * r.normal());
    if (gapEvery > 0 && i > 0 && i % gapEvery === 0) {
      open = prev * (1 + (r.next() < 0.5 ? -1 : 1) * gapSize * (0.5 + r.next()));
    }
    // swingEvery > 0 alternates up and down legs of that many bars (trend context for 3-bar patterns).
    const d = swingEvery > 0 ? (Math.floor(i / swingEvery) % 2 === 0 ? drift : -drift) : drift;
    const close = open * Math.exp(d + s * r.normal());
    const hi = Math.max(open, close) * (1 + Math.abs(s * 0.6 * r.normal()));
    const lo = Math.min(open, close) * (1 - Math.min(0.5, Math.abs(s * 0.6 * r.normal())));
    const ro = round(open), rc = round(close);
    o.push(ro); c.push(rc);
    h.push(Math.max(round(hi), ro, rc));
    l.push(Math.min(round(lo), ro, rc));
    v.push(Math.round(1000 + 9000 * r.next() * burst));
    prev = close;
  }
  return { open: o, high: h, low: l, close: c, volume: v };
}

function monotone(n, start, step) {
  const o = [], h = [], l = [], c = [], v = [];
  for (let i = 0; i < n; i++) {
    const open = round(start + step * i), close = round(start + step * (i + 0.8));
    o.push(open); c.push(close);
    h.push(round(Math.max(open, close) + Math.abs(step) * 0.3));
    l.push(round(Math.min(open, close) - Math.abs(step) * 0.3));
    v.push(1000 + (i % 7) * 100);
  }
  return { open: o, high: h, low: l, close: c, volume: v };
}

function flat(n, price) {
  const a = new Array(n).fill(price);
  return { open: a, high: a, low: a, close: a, volume: new Array(n).fill(500) };
}

const series = [
  { name: 'walk_100_1pct', ...walk({ seed: 1, n: 1000, start: 100, vol: 0.01 }) },
  { name: 'walk_100_3pct', ...walk({ seed: 2, n: 1000, start: 100, vol: 0.03 }) },
  { name: 'walk_1e-4_2pct', ...walk({ seed: 3, n: 1000, start: 1e-4, vol: 0.02 }) },
  { name: 'walk_5e4_0.5pct', ...walk({ seed: 4, n: 1000, start: 5e4, vol: 0.005 }) },
  { name: 'walk_1_1.5pct', ...walk({ seed: 5, n: 1000, start: 1, vol: 0.015 }) },
  { name: 'gapped_100_1pct', ...walk({ seed: 6, n: 1000, start: 100, vol: 0.01, gapEvery: 37, gapSize: 0.06 }) },
  { name: 'monotone_up', ...monotone(1000, 50, 0.25) },
  { name: 'monotone_down', ...monotone(1000, 400, -0.25) },
  { name: 'flat_100', ...flat(400, 100) },
  { name: 'flat_5e4', ...flat(400, 50000.123) },
];

// run executes one TA-Lib function and returns its outputs aligned to the
// input (null before begIndex). TA-Lib aborts the process on a bad call,
// so every call is checked before it is made.
function run(name, s, opts) {
  const info = talib.explain(name);
  const args = { name, startIdx: 0, endIdx: s.close.length - 1 };
  // Every optional input must be present (a missing one aborts node).
  for (const oi of info.optInputs) args[oi.name] = oi.defaultValue;
  Object.assign(args, opts);
  for (const inp of info.inputs) {
    if (inp.type === 'price') {
      for (const f of Object.values(inp.flags)) args[f] = s[f];
    } else {
      args[inp.name] = s.close;
    }
  }
  const r = talib.execute(args);
  if (r.error) throw new Error(name + ': ' + r.error);
  const out = {};
  for (const [k, vals] of Object.entries(r.result)) {
    const a = new Array(s.close.length).fill(null);
    vals.forEach((x, i) => { a[r.begIndex + i] = (info.outputs[0].type === 'integer') ? x : Number(x.toPrecision(13)); });
    out[k] = a;
  }
  return { begIndex: r.begIndex, ...out };
}

const indicators = [
  ['MACD', { optInFastPeriod: 12, optInSlowPeriod: 26, optInSignalPeriod: 9 }, 'macd_12_26_9'],
  ['MACD', { optInFastPeriod: 5, optInSlowPeriod: 35, optInSignalPeriod: 5 }, 'macd_5_35_5'],
  ['BBANDS', { optInTimePeriod: 20, optInNbDevUp: 2, optInNbDevDn: 2, optInMAType: 0 }, 'bbands_20_2'],
  ['RSI', { optInTimePeriod: 14 }, 'rsi_14'],
  ['ATR', { optInTimePeriod: 14 }, 'atr_14'],
  ['ADX', { optInTimePeriod: 14 }, 'adx_14'],
];

const indOut = { generator: 'finance/market/testdata/gen/talib.js', talib: 'npm talib@' + talib.version + ' (TA-Lib C 0.6.0-dev)', series: [] };
for (const s of series) {
  const entry = { name: s.name, open: s.open, high: s.high, low: s.low, close: s.close, volume: s.volume, outputs: {} };
  for (const [fn, opts, key] of indicators) entry.outputs[key] = run(fn, s, opts);
  indOut.series.push(entry);
}
fs.writeFileSync(path.join(outDir, 'talib_indicators.json'), JSON.stringify(indOut) + '\n');

const patterns = ['CDLENGULFING', 'CDLHAMMER', 'CDLSHOOTINGSTAR', 'CDLDOJI', 'CDLMORNINGSTAR', 'CDLEVENINGSTAR',
  'CDL3WHITESOLDIERS', 'CDL3BLACKCROWS', 'CDLHARAMI', 'CDLPIERCING', 'CDLDARKCLOUDCOVER'];
const patSeries = [
  { name: 'walk_100_2pct_10k', ...walk({ seed: 11, n: 10000, start: 100, vol: 0.02 }) },
  { name: 'walk_100_1pct_gapped', ...walk({ seed: 12, n: 2000, start: 100, vol: 0.01, gapEvery: 11, gapSize: 0.02 }) },
  { name: 'swings_100_0.8pct', ...walk({ seed: 13, n: 2000, start: 100, vol: 0.008, drift: 0.008, swingEvery: 12 }) },
];
const patOut = { generator: indOut.generator, talib: indOut.talib, note: 'outputs are TA-Lib outInteger (0, +/-100, +/-200); null before begIndex', series: [] };
for (const s of patSeries) {
  const entry = { name: s.name, open: s.open, high: s.high, low: s.low, close: s.close, outputs: {} };
  for (const p of patterns) {
    const r = run(p, s, {});
    entry.outputs[p] = { begIndex: r.begIndex, values: r.outInteger };
  }
  patOut.series.push(entry);
}
fs.writeFileSync(path.join(outDir, 'talib_patterns.json'), JSON.stringify(patOut) + '\n');
console.log('wrote', path.join(outDir, 'talib_indicators.json'), path.join(outDir, 'talib_patterns.json'));
