// The causal charts' link to the flame graph (only in pages with causal charts, after flame.js):
// a click on a chart puts its target's frames into the search field, so the flame graph
// highlights them and says what share of the profile they cover; a second click clears it.
(() => {
  'use strict';
  const search = document.getElementById('search');
  const charts = [...document.querySelectorAll('svg.causal-chart[data-frames]')];
  const escape = (name) => name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const select = (chart) => {
    for (const c of charts) c.classList.toggle('selected', c === chart);
    search.value = chart ? `^(${JSON.parse(chart.dataset.frames).map(escape).join('|')})$` : '';
    search.dispatchEvent(new Event('input'));
  };
  for (const chart of charts)
    chart.addEventListener('click', () => select(chart.classList.contains('selected') ? null : chart));
  // Typing a search of one's own leaves the chart's.
  search.addEventListener('input', (event) => {
    if (event.isTrusted) for (const c of charts) c.classList.remove('selected');
  });
})();
