// Draws the portal's charts with uPlot from the JSON data islands the
// pages carry (<script type="application/json">): no inline script runs.
(function () {
  "use strict";
  var palette = ["#0b5cad", "#c2410c", "#15803d", "#7c3aed", "#b91c1c", "#0e7490", "#a16207", "#be185d"];

  function format(unit, v) {
    if (v == null) { return ""; }
    if (unit === "usd") { return "$" + v.toFixed(v < 1 ? 3 : 2); }
    if (unit === "ms") { return v + " ms"; }
    if (unit === "ratio") { return (v * 100).toFixed(1) + " %"; }
    return String(v);
  }

  function draw(figure) {
    var island = document.getElementById(figure.getAttribute("data-chart"));
    if (!island || typeof uPlot === "undefined") { return; }
    var data = JSON.parse(island.textContent);
    if (!data.series || data.series.length === 0) {
      var p = document.createElement("p");
      p.textContent = "Nothing to draw yet: no activity in this period.";
      figure.appendChild(p);
      figure.setAttribute("data-drawn", "empty");
      return;
    }
    var series = [{}];
    var rows = [data.x];
    data.series.forEach(function (s, i) {
      var color = palette[i % palette.length];
      series.push({ label: s.label, stroke: color, width: 2, points: { show: true, size: 5, fill: color },
        value: function (u, v) { return format(data.unit, v); } });
      rows.push(s.values);
    });
    var width = Math.max(280, figure.clientWidth);
    var plot = new uPlot({
      width: width, height: 240, series: series,
      axes: [{}, { values: function (u, vals) { return vals.map(function (v) { return format(data.unit, v); }); }, size: 70 }],
      scales: { x: { time: true }, y: { range: function (u, min, max) {
        // From zero; an idle series still gets a readable axis.
        if (max > 0) { return [0, max * 1.1]; }
        return [0, data.unit === "ratio" ? 0.05 : 1];
      } } }
    }, rows, figure);
    plot.root.setAttribute("role", "img");
    plot.root.setAttribute("aria-label", "Chart: " + data.series.map(function (s) { return s.label; }).join(", "));
    figure.setAttribute("data-drawn", "yes");
    window.addEventListener("resize", function () {
      plot.setSize({ width: Math.max(280, figure.clientWidth), height: 240 });
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    Array.prototype.forEach.call(document.querySelectorAll("[data-chart]"), draw);
  });
})();
