// The flame graph viewer of `bottlenecks flame` (flame/web/, embedded in every page it writes).
// It draws the data in #bn-data (flame/include/bn/flame/flame_graph.h says what it holds) as
// SVG: the callee part below its root, the caller part of a focus above it. A click zooms, the
// search field takes a regular expression and shows the share it matches, hovering shows a
// frame's costs. Costs are exact in the data: integers (or their decimal text) read as BigInt;
// only positions are floating point. Colours and texts are those of the SVG writer
// (flame/src/colors.cpp, frame_text.cpp), so both outputs agree; amounts print by the rules of
// the REPL's formatter (profile-iface/src/units.cpp), ported below with BigInt so that every
// digit is the same.
'use strict';
(() => {
  const data = JSON.parse(document.getElementById('bn-data').textContent);
  const ROW = 17;
  const MARGIN = 10;
  const CHAR = 6.6; // width of one 11px monospace character
  const SVG = 'http://www.w3.org/2000/svg';
  const chart = document.getElementById('chart');
  const matchedText = document.getElementById('matched');
  const details = document.getElementById('details');
  const den = BigInt(data.denominator);
  const scale = BigInt(data.diffScale);
  const encoder = new TextEncoder();

  const abs = (v) => (v < 0n ? -v : v);

  // Amounts as the REPL prints them: profile-iface/src/units.cpp, rule for rule (units.h says why
  // each). Every kind rounds to three significant digits, halves away from zero, from the exact
  // numerator and denominator.
  const DIGITS = 3;
  const pow10 = (k) => 10n ** BigInt(k);
  // n / d (both positive) as mantissa · 10^exponent, the mantissa of DIGITS digits; 0 for zero.
  // n has a digits and d has b, so floor(log10(n / d)) is a - b or one less.
  function significant(n, d) {
    if (n === 0n) return { mantissa: 0n, exponent: 0 };
    let k = String(n).length - String(d).length;
    if (k >= 0 ? n < d * pow10(k) : n * pow10(-k) < d) k--;
    let exponent = k - (DIGITS - 1);
    if (exponent < 0) n *= pow10(-exponent);
    else d *= pow10(exponent);
    let mantissa = (2n * n + d) / (2n * d);
    if (mantissa === pow10(DIGITS)) {
      // 999.5 rounds up to the next power of ten
      mantissa /= 10n;
      exponent++;
    }
    return { mantissa, exponent };
  }
  // The rounded value is at least 1 in a unit of 10^shift.
  const atLeastOne = (s, shift) => s.mantissa !== 0n && s.exponent - shift >= 1 - DIGITS;
  // The decimal text of the value in a unit of 10^shift: "123000", "12.3", "0.0123".
  function decimal(s, shift = 0) {
    const text = String(s.mantissa);
    const exponent = s.exponent - shift;
    if (exponent >= 0) return text + '0'.repeat(exponent);
    const point = -exponent;
    if (point < text.length) return `${text.slice(0, text.length - point)}.${text.slice(text.length - point)}`;
    return `0.${'0'.repeat(point - text.length)}${text}`;
  }
  const magnitude = (n, d) => ({ negative: n !== 0n && n < 0n !== d < 0n, n: abs(n), d: abs(d) });
  const signed = (v, text) => (v.negative ? `-${text}` : text);
  // Largest first, each `factor` · 10^`shift` ns and taken from `from` · 10^`fromShift` ns on:
  // minutes and hours start at 100 of the unit below, so "99.9 s" is followed by "1.67 min".
  const TIME_UNITS = [
    { name: 'h', factor: 36n, shift: 11, from: 6n, fromShift: 12 },
    { name: 'min', factor: 6n, shift: 10, from: 1n, fromShift: 11 },
    { name: 's', factor: 1n, shift: 9, from: 1n, fromShift: 9 },
    { name: 'ms', factor: 1n, shift: 6, from: 1n, fromShift: 6 },
    { name: 'µs', factor: 1n, shift: 3, from: 1n, fromShift: 3 },
  ];
  function durationText(ns, d) {
    if (d === 0n) return 'n/a';
    const v = magnitude(ns, d);
    if (v.n === 0n) return '0 s';
    for (const u of TIME_UNITS) {
      if (!atLeastOne(significant(v.n, v.d * u.from), u.fromShift)) continue;
      return signed(v, `${decimal(significant(v.n, v.d * u.factor), u.shift)} ${u.name}`);
    }
    // Under a microsecond: whole nanoseconds as they are.
    if (v.n % v.d === 0n) return signed(v, `${v.n / v.d} ns`);
    return signed(v, `${decimal(significant(v.n, v.d))} ns`);
  }
  function countText(n, d) {
    if (d === 0n) return 'n/a';
    const v = magnitude(n, d);
    if (v.n % v.d === 0n) return signed(v, String(v.n / v.d));
    // From 100 on, three digits would round away whole units: the nearest integer instead.
    if (v.n / v.d >= 100n) {
      const rest = v.n % v.d;
      return signed(v, String(v.n / v.d + (rest >= v.d - rest ? 1n : 0n)));
    }
    return signed(v, decimal(significant(v.n, v.d)));
  }
  function rateText(n, d) {
    if (d === 0n) return 'n/a';
    const v = magnitude(n, d);
    if (v.n === 0n) return '0';
    return signed(v, decimal(significant(v.n, v.d)));
  }
  const BYTE_UNITS = ['PiB', 'TiB', 'GiB', 'MiB', 'KiB'];
  function bytesText(n, d) {
    if (d === 0n) return 'n/a';
    const v = magnitude(n, d);
    for (let i = 0; i < BYTE_UNITS.length; i++) {
      const s = significant(v.n, v.d << BigInt(10 * (BYTE_UNITS.length - i)));
      if (atLeastOne(s, 0)) return signed(v, `${decimal(s)} ${BYTE_UNITS[i]}`);
    }
    if (v.n % v.d === 0n) return signed(v, `${v.n / v.d} B`);
    return signed(v, `${decimal(significant(v.n, v.d))} B`);
  }
  // An amount with its unit (iface::amount_text): `unit` is the data's unit with a BigInt scale.
  function amountText(n, d, unit) {
    switch (unit.kind) {
      case 'duration':
        return durationText(n * unit.scale, d);
      case 'bytes':
        return bytesText(n, d);
      case 'rate':
        return rateText(n, d) + (unit.name ? ` ${unit.name}` : '');
      default:
        return countText(n, d) + (unit.name ? ` ${unit.name}` : '');
    }
  }
  // Names in few columns as the REPL fits them: profile-iface/src/name_fit.cpp, rule for rule
  // (name_fit.h). Packages shorten to their initials, outermost first, then give way to "…"; only
  // a `Class.method` too long on its own is cut in the middle. A column is a code point.
  const CUT = '…';
  const MIN_COLUMNS = 5; // iface::kMinNameColumns: "…" and two characters either side
  const columns = (s) => [...s].length;
  function elideMiddle(s, width) {
    width = Math.max(width, MIN_COLUMNS);
    const points = [...s];
    if (points.length <= width) return s;
    const keep = width - columns(CUT);
    const head = Math.ceil(keep / 2);
    const tail = keep - head;
    return points.slice(0, head).join('') + CUT + points.slice(points.length - tail).join('');
  }
  // Letters and digits, and any character beyond ASCII.
  const letterOrDigit = (c) => /[A-Za-z0-9]/.test(c) || c.codePointAt(0) >= 0x80;
  // A package shortened to what comes before its first letter and that letter: "apache" → "a",
  // "@java" → "@j".
  function initial(part) {
    const points = [...part];
    let i = 0;
    while (i < points.length && !letterOrDigit(points[i])) i++;
    return points.slice(0, Math.min(i + 1, points.length)).join('');
  }
  // `kept`: how many last dot-separated parts are never shortened (2: `Class.method`).
  function elideName(name, width, kept = 2) {
    width = Math.max(width, MIN_COLUMNS);
    if (columns(name) <= width) return name;
    // The dotted parts before any signature, and the signature itself, whose dots do not separate.
    const paren = name.includes('(') ? name.indexOf('(') : name.length;
    const rest = name.slice(paren);
    const parts = name.slice(0, paren).split('.');
    const joined = (from) => parts.slice(from).join('.') + rest;
    const packages = Math.max(parts.length - kept, 0);
    for (let i = 0; i < packages; i++) {
      parts[i] = initial(parts[i]);
      const shorter = joined(0);
      if (columns(shorter) <= width) return shorter;
    }
    if (packages > 0 && columns(CUT + joined(packages)) <= width) return CUT + joined(packages);
    return elideMiddle(joined(packages), width);
  }

  const unit = { kind: data.unit.kind, name: data.unit.name, scale: BigInt(data.unit.scale) };
  const withUnit = (v) => amountText(v, den, unit);
  // part / whole in percent, one decimal, halves away from zero (iface::percent_string).
  const percent = (part, whole) => {
    if (whole === 0n) return 'n/a';
    const q = (2n * abs(part) * 1000n + abs(whole)) / (2n * abs(whole));
    const digits = String(q).padStart(2, '0');
    const sign = q !== 0n && part < 0n !== whole < 0n ? '-' : '';
    return `${sign}${digits.slice(0, -1)}.${digits.slice(-1)}%`;
  };

  // Positions, parents and subtree ends of a part's frames (preorder with depths).
  function prepare(raw) {
    if (!raw) return null;
    const n = raw.name.length;
    const comparison = Array.isArray(raw.btotal);
    const part = {
      raw,
      n,
      comparison,
      a: raw.total.map(BigInt),
      b: comparison ? raw.btotal.map(BigInt) : null,
      x: new Float64Array(n),
      w: new Float64Array(n),
      parent: new Int32Array(n),
      end: new Uint32Array(n),
      maxDepth: 0,
    };
    part.value = (i) => (comparison ? part.a[i] - part.b[i] : part.a[i]);
    const cursor = [];
    const stack = [];
    for (let i = 0; i < n; i++) {
      const d = raw.depth[i];
      part.maxDepth = Math.max(part.maxDepth, d);
      // A comparison draws both runs, so a path of one run stays visible.
      part.w[i] = Number(comparison ? abs(part.a[i]) + abs(part.b[i]) : abs(part.a[i]));
      stack.length = d;
      part.parent[i] = d === 0 ? -1 : stack[d - 1];
      stack.push(i);
      cursor.length = d + 1;
      part.x[i] = d === 0 ? 0 : cursor[d - 1];
      if (d > 0) cursor[d - 1] += part.w[i];
      cursor[d] = part.x[i];
      part.end[i] = i + 1;
    }
    for (let i = n - 1; i > 0; i--) {
      const p = part.parent[i];
      if (part.end[i] > part.end[p]) part.end[p] = part.end[i];
    }
    return part;
  }
  const parts = { callees: prepare(data.callees), callers: prepare(data.callers) };
  const nameOf = (part, i) => data.names[part.raw.name[i]];

  // FNV-1a over the UTF-8 bytes, as colors.cpp.
  const nameHash = (s) => {
    let h = 2166136261;
    for (const byte of encoder.encode(s)) h = Math.imul(h ^ byte, 16777619) >>> 0;
    return h;
  };
  const hsl = (h, s, l) => `hsl(${h},${s}%,${l}%)`;
  const isMerged = (name) => name.startsWith('[') && name.endsWith(' frames merged]');
  function frameColor(part, i) {
    const labels = part.raw.labels[i];
    if (labels !== 0) return data.labels[31 - Math.clz32(labels & -labels)].color;
    const name = nameOf(part, i);
    if (isMerged(name)) return hsl(0, 0, 75);
    if (part.comparison) {
      const v = part.value(i);
      if (v === 0n) return hsl(0, 0, 90);
      const lightness = 95 - Number((abs(v) * 45n + scale / 2n) / scale);
      return hsl(v > 0n ? 0 : 220, 85, lightness);
    }
    const h = nameHash(name);
    return hsl(h % 50, 70 + ((h >>> 8) % 20), 55 + ((h >>> 16) % 15));
  }

  // What hovering shows (frame_text.cpp). A caller's own cost means nothing here: it is the
  // focus's cost reached through it.
  function frameText(part, i) {
    const caller = part === parts.callers;
    const base = (b) => (caller ? '' : `, base ${withUnit(b)}`);
    let text = `${nameOf(part, i)}\n`;
    if (i === 0 && data.focus.length > 0) {
      text += `summary: cum ${withUnit(BigInt(data.focusCum))}, base ${withUnit(BigInt(data.focusBase))}`;
    } else {
      const self = BigInt(part.raw.self[i]) - (part.comparison ? BigInt(part.raw.bself[i]) : 0n);
      text += `cum ${withUnit(part.value(i))} (${percent(part.value(i), part.value(0))})`;
      text += caller ? ' of the summary through these callers' : base(self);
    }
    if (part.comparison) {
      text += `\nA: cum ${withUnit(part.a[i])}${base(BigInt(part.raw.self[i]))}`;
      text += `\nB: cum ${withUnit(part.b[i])}${base(BigInt(part.raw.bself[i]))}`;
      if (part.raw.presence[i] === 1) text += '\nonly in A';
      if (part.raw.presence[i] === 2) text += '\nonly in B';
    }
    return text;
  }

  const state = { zoom: { callees: 0, callers: 0 }, pattern: null };

  // The callee part's value under the outermost matching frames: a measurement below several
  // matches counts once, as the REPL's total cum of a set (flame/src/matched.cpp).
  function matchedValue(pattern) {
    const part = parts.callees;
    let sum = 0n;
    for (let i = 0; i < part.n; ) {
      if (pattern.test(nameOf(part, i))) {
        sum += part.value(i);
        i = part.end[i];
      } else {
        i++;
      }
    }
    return sum;
  }

  function showMatched() {
    if (!state.pattern) {
      matchedText.textContent = '';
      return;
    }
    const part = parts.callees;
    const sum = matchedValue(state.pattern);
    matchedText.textContent = `matched ${percent(sum, part.value(0))} (${withUnit(sum)} of ${withUnit(part.value(0))})`;
  }

  function drawPart(key, focusY, direction, skipRoot, width) {
    const part = parts[key];
    const z = state.zoom[key];
    if (part.w[z] === 0) return;
    const onPath = new Set(); // ancestors of the zoomed frame: drawn full width
    for (let a = part.parent[z]; a >= 0; a = part.parent[a]) onPath.add(a);
    for (let i = skipRoot ? 1 : 0; i < part.n; i++) {
      let left;
      let w;
      if (onPath.has(i)) {
        left = 0;
        w = width;
      } else if (i >= z && i < part.end[z]) {
        left = ((part.x[i] - part.x[z]) / part.w[z]) * width;
        w = (part.w[i] / part.w[z]) * width;
        if (w < 0.1) {
          i = part.end[i] - 1; // nothing below is wider
          continue;
        }
      } else {
        continue;
      }
      const name = nameOf(part, i);
      const g = document.createElementNS(SVG, 'g');
      g.classList.add('frame');
      if (state.pattern && state.pattern.test(name)) g.classList.add('matched');
      if (part.comparison && part.raw.presence[i] === 1) g.classList.add('only-a');
      if (part.comparison && part.raw.presence[i] === 2) g.classList.add('only-b');
      g.dataset.part = key;
      g.dataset.index = String(i);
      g.dataset.name = name;
      const y = focusY + direction * part.raw.depth[i] * ROW;
      const title = document.createElementNS(SVG, 'title');
      title.textContent = frameText(part, i);
      const rect = document.createElementNS(SVG, 'rect');
      rect.setAttribute('x', (MARGIN + left).toFixed(2));
      rect.setAttribute('y', String(y));
      rect.setAttribute('width', w.toFixed(2));
      rect.setAttribute('height', String(ROW - 1));
      rect.setAttribute('fill', frameColor(part, i));
      g.append(title, rect);
      // As the SVG writer: packages shorten before the `Class.method` a reader looks for.
      const fits = Math.floor((w - 6) / CHAR);
      if (fits >= MIN_COLUMNS) {
        const text = document.createElementNS(SVG, 'text');
        text.setAttribute('x', (MARGIN + left + 3).toFixed(2));
        text.setAttribute('y', String(y + 12));
        text.textContent = elideName(name, fits);
        g.append(text);
      }
      chart.append(g);
    }
  }

  function draw() {
    const width = Math.max(300, document.documentElement.clientWidth - 4 * MARGIN);
    const callerRows = parts.callers ? parts.callers.maxDepth : 0;
    const focusY = callerRows * ROW;
    const height = focusY + (parts.callees.maxDepth + 1) * ROW;
    chart.replaceChildren();
    chart.setAttribute('width', String(width + 2 * MARGIN));
    chart.setAttribute('height', String(height));
    chart.dataset.width = width.toFixed(2); // the full width of a frame, for readers of the page
    if (parts.callers) drawPart('callers', focusY, -1, true, width);
    drawPart('callees', focusY, 1, false, width);
    showMatched();
  }

  chart.addEventListener('click', (event) => {
    const g = event.target.closest('g.frame');
    if (!g) return;
    const key = g.dataset.part;
    const i = Number(g.dataset.index);
    if (key === 'callees' && i === 0) {
      state.zoom = { callees: 0, callers: 0 };
    } else {
      state.zoom[key] = i;
    }
    draw();
  });
  chart.addEventListener('mouseover', (event) => {
    const g = event.target.closest('g.frame');
    if (g) details.textContent = frameText(parts[g.dataset.part], Number(g.dataset.index));
  });
  document.getElementById('search').addEventListener('input', (event) => {
    const text = event.target.value;
    try {
      state.pattern = text === '' ? null : new RegExp(text);
    } catch (e) {
      state.pattern = null;
      draw();
      matchedText.textContent = `not a regular expression: ${e.message}`;
      return;
    }
    draw();
  });
  document.getElementById('reset').addEventListener('click', () => {
    state.zoom = { callees: 0, callers: 0 };
    draw();
  });
  window.addEventListener('resize', draw);

  function legend() {
    const box = document.getElementById('legend');
    const swatch = (color, text) => {
      const s = document.createElement('span');
      s.className = 'swatch';
      s.style.background = color;
      box.append(s, document.createTextNode(text));
    };
    for (const label of data.labels) swatch(label.color, `label ${label.name}`);
    if (data.comparison) {
      // One absolute scale for the whole picture: the color of A − B at these values.
      for (const [num, div] of [[-1n, 1n], [-1n, 2n], [0n, 1n], [1n, 2n], [1n, 1n]]) {
        const v = (scale * num) / div;
        const color = v === 0n ? hsl(0, 0, 90) : hsl(v > 0n ? 0 : 220, 85, 95 - Number((abs(v) * 45n + scale / 2n) / scale));
        swatch(color, `A − B = ${amountText(scale * num, den * div, unit)}`);
      }
      box.append(document.createTextNode('  dashed outline: the call path occurs in one run only'));
    }
  }

  document.getElementById('title').textContent = data.title;
  const notes = document.getElementById('notes');
  for (const note of data.notes) {
    const li = document.createElement('li');
    li.textContent = note;
    notes.append(li);
  }
  legend();
  draw();
  // The formatters, for readers of the page and for the test that holds them to units.cpp and
  // name_fit.cpp.
  window.bnFlame = { amountText, elideName };
})();
