/**
 * The console's page: one HTML file, one stylesheet and one script of plain DOM code — no
 * framework, no build step, nothing fetched from elsewhere (about 20 KB in all, parsed in a
 * millisecond). It keeps the snapshot it is sent and each event after it in bounded arrays and
 * redraws the open panel at most once per animation frame. Written without template literals, so
 * it sits in these strings as is.
 */

export const PAGE_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>tsop dev console</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/app.css">
</head>
<body>
<header>
  <strong>tsop dev</strong>
  <nav id="tabs">
    <button data-tab="controllers">Controllers</button>
    <button data-tab="timeline" class="on">Reconciles</button>
    <button data-tab="objects">Objects</button>
    <button data-tab="webhooks">Webhooks</button>
  </nav>
  <span id="conn" class="conn">connecting…</span>
</header>
<main>
  <section id="controllers" hidden></section>
  <section id="timeline">
    <div class="filters">
      <select id="f-controller" aria-label="controller"><option value="">every controller</option></select>
      <input id="f-object" placeholder="object (namespace/name)" aria-label="object">
      <select id="f-result" aria-label="result">
        <option value="">any result</option><option value="success">success</option>
        <option value="requeue">requeue</option><option value="error">error</option>
      </select>
      <label><input type="checkbox" id="f-restarts" checked> restarts</label>
    </div>
    <table class="rows"><thead><tr><th>time</th><th>controller</th><th>object</th><th>trigger</th>
      <th>duration</th><th>result</th></tr></thead><tbody id="rows"></tbody></table>
  </section>
  <section id="objects" hidden><div class="split"><div id="obj-list"></div><div id="obj-detail"></div></div></section>
  <section id="webhooks" hidden>
    <table class="rows"><thead><tr><th>time</th><th>type</th><th>operation</th><th>kind</th><th>object</th>
      <th>answer</th><th>duration</th></tr></thead><tbody id="hooks"></tbody></table>
  </section>
</main>
<script type="module" src="/app.js"></script>
</body>
</html>
`;

export const PAGE_CSS = `
:root { --fg: #1d2330; --muted: #6b7385; --line: #e3e6ec; --bg: #fafbfc; --ok: #1a7f37; --bad: #c62828; --warn: #9a6700;
  --accent: #3451b2; font: 13px/1.45 system-ui, sans-serif; color: var(--fg); background: var(--bg); }
body { margin: 0; }
header { display: flex; gap: 16px; align-items: center; padding: 8px 16px; border-bottom: 1px solid var(--line); background: #fff;
  position: sticky; top: 0; z-index: 2; }
nav button { border: 0; background: none; padding: 6px 10px; cursor: pointer; font: inherit; color: var(--muted); border-radius: 6px; }
nav button.on { color: var(--fg); background: #eef1f8; font-weight: 600; }
.conn { margin-left: auto; color: var(--muted); }
.conn.live { color: var(--ok); }
main { padding: 12px 16px; }
.filters { display: flex; gap: 8px; margin-bottom: 8px; align-items: center; }
.filters input, .filters select { font: inherit; padding: 3px 6px; }
table.rows { width: 100%; border-collapse: collapse; background: #fff; }
table.rows th { text-align: left; color: var(--muted); font-weight: 500; border-bottom: 1px solid var(--line); padding: 4px 8px; }
table.rows td { padding: 4px 8px; border-bottom: 1px solid var(--line); vertical-align: top; }
tr.row { cursor: pointer; }
tr.row:hover { background: #f3f5fa; }
tr.restart td { background: #fff8e1; color: var(--warn); font-weight: 600; }
tr.restart.failed td { background: #fdecea; color: var(--bad); }
.ok { color: var(--ok); } .bad { color: var(--bad); } .warn { color: var(--warn); } .muted { color: var(--muted); }
pre { background: #f4f5f7; padding: 8px; overflow: auto; max-height: 360px; margin: 6px 0; font-size: 12px; }
.detail { padding: 8px 8px 12px 24px; background: #fcfcfd; }
.wf { position: relative; height: 18px; margin: 2px 0; }
.wf .bar { position: absolute; height: 12px; top: 3px; background: #8fa6e8; border-radius: 2px; min-width: 2px; }
.wf .bar.err { background: #e57373; }
.wf-row { display: grid; grid-template-columns: 440px 1fr 70px; gap: 8px; align-items: center; font-size: 12px; }
.wf-row > span:first-child { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.split { display: grid; grid-template-columns: 280px 1fr; gap: 16px; }
#obj-list .kind { font-weight: 600; margin: 10px 0 4px; }
#obj-list a { display: block; padding: 2px 6px; cursor: pointer; border-radius: 4px; color: var(--accent); }
#obj-list a.on { background: #eef1f8; }
.card { background: #fff; border: 1px solid var(--line); border-radius: 8px; padding: 10px 12px; margin-bottom: 12px; }
.cards { display: grid; grid-template-columns: repeat(auto-fill, minmax(380px, 1fr)); gap: 12px; }
.stats { display: flex; gap: 18px; margin: 6px 0; }
.stats b { display: block; font-size: 18px; }
.version { border-left: 3px solid var(--line); padding: 2px 10px; margin: 8px 0; }
.diff td { font-family: ui-monospace, monospace; font-size: 12px; padding: 1px 8px 1px 0; }
.diff .before { color: var(--bad); } .diff .after { color: var(--ok); }
button.act { font: inherit; padding: 4px 10px; border: 1px solid var(--accent); color: var(--accent); background: #fff; border-radius: 6px;
  cursor: pointer; }
a.link { color: var(--accent); cursor: pointer; text-decoration: underline; }
h3 { margin: 14px 0 4px; font-size: 13px; }
`;

export const PAGE_JS = String.raw`
const state = { reconciles: [], restarts: [], webhooks: [], objects: new Map(), points: [], limits: {},
  tab: 'timeline', open: new Set(), openHooks: new Set(), selected: '', detail: null };
const $ = (id) => document.getElementById(id);

function h(tag, attrs, ...kids) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on')) el.addEventListener(k.slice(2), v);
    else if (k === 'style') el.style.cssText = v;
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  for (const kid of kids.flat()) if (kid !== undefined && kid !== null && kid !== false)
    el.append(kid instanceof Node ? kid : document.createTextNode(String(kid)));
  return el;
}
const time = (ms) => new Date(ms).toLocaleTimeString([], { hour12: false }) + '.' + String(ms % 1000).padStart(3, '0');
const dur = (ms) => ms < 1000 ? Math.round(ms) + ' ms' : (ms / 1000).toFixed(1) + ' s';
const shortKind = (k) => (k || '').split('/').pop();
const resultClass = (r) => r === 'success' ? 'ok' : r === 'error' ? 'bad' : 'warn';

function triggerText(t) {
  const fold = t.folded > 0 ? ' (+' + t.folded + ' folded)' : '';
  if (t.manual) return 'manual trigger' + fold;
  if (t.reason === 'event') {
    const verb = { add: 'added', update: 'updated', delete: 'deleted', generic: 'event' }[t.event] || t.event;
    const whose = t.watch === 'owns' ? ' (owned)' : t.watch === 'watches' ? ' (watched)' : '';
    return shortKind(t.kind) + (t.object ? ' ' + t.object : '') + ' ' + verb + whose + fold;
  }
  const delay = /(\d+)ms/.exec(t.phrase || '');
  if (t.reason === 'requeueAfter') return 'requeue after' + (delay ? ' ' + dur(Number(delay[1])) : '') + fold;
  if (t.reason === 'backoff') return 'backoff after error' + (delay ? ' ' + dur(Number(delay[1])) : '') + fold;
  if (t.reason === 'requeue') return 'requeue' + fold;
  if (t.reason === 'direct') return "queued by the controller's code" + fold;
  return t.phrase || t.reason;
}

function cap(list, n) { if (list.length > n) list.splice(0, list.length - n); }

function upsertReconcile(r) {
  const i = state.reconciles.findIndex((x) => x.spanId === r.spanId);
  if (i >= 0) state.reconciles[i] = r; else state.reconciles.push(r);
  cap(state.reconciles, state.limits.reconciles || 2000);
  const sel = $('f-controller');
  if (![...sel.options].some((o) => o.value === r.controller)) sel.append(h('option', { value: r.controller }, r.controller));
}

let queued = false;
function redraw() {
  if (queued) return;
  queued = true;
  requestAnimationFrame(() => { queued = false; draw(); });
}
function draw() {
  if (state.tab === 'timeline') drawTimeline();
  else if (state.tab === 'controllers') drawControllers();
  else if (state.tab === 'objects') drawObjects();
  else if (state.tab === 'webhooks') drawWebhooks();
}

function waterfall(r) {
  if (r.calls.length === 0) return h('div', { class: 'muted' }, 'no API calls (or their spans have not arrived yet)');
  const span = Math.max(r.durationMs, 1);
  return h('div', { 'data-testid': 'waterfall' }, r.calls.map((c) => {
    const left = Math.max(0, Math.min(100, (c.startMs - r.startMs) / span * 100));
    const width = Math.max(0.5, Math.min(100 - left, c.durationMs / span * 100));
    return h('div', { class: 'wf-row', 'data-testid': 'api-call' },
      h('span', {}, c.name + ' ', h('span', { class: 'muted' }, c.method + ' ' + c.path),
        c.status ? h('span', { class: 'bad' }, ' ' + c.status) : null),
      h('div', { class: 'wf' }, h('div', { class: 'bar' + (c.error ? ' err' : ''), style: 'left:' + left + '%;width:' + width + '%' })),
      h('span', { class: 'muted' }, dur(c.durationMs)));
  }));
}

function reconcileRows(r) {
  const open = state.open.has(r.spanId);
  const row = h('tr', { class: 'row', 'data-testid': 'reconcile', 'data-span': r.spanId,
      onclick: () => { open ? state.open.delete(r.spanId) : state.open.add(r.spanId); drawTimeline(); } },
    h('td', {}, time(r.startMs)), h('td', {}, r.controller), h('td', {}, r.object),
    h('td', { 'data-testid': 'trigger' }, triggerText(r.trigger)), h('td', {}, dur(r.durationMs)),
    h('td', { class: resultClass(r.result) }, r.result + (r.requeueAfterMs !== undefined ? ' ' + dur(r.requeueAfterMs) : '')));
  if (!open) return [row];
  return [row, h('tr', {}, h('td', { colspan: 6, class: 'detail' },
    r.error ? h('div', { class: 'bad' }, 'error: ' + r.error) : null,
    r.stack ? h('pre', {}, r.stack) : null,
    h('div', { class: 'muted' }, 'reconcileID ' + r.reconcileID + ' · trigger: ' + (r.trigger.phrase || r.trigger.reason)),
    waterfall(r)))];
}

function restartRow(m) {
  const text = m.ok
    ? (m.why === 'start' ? 'operator started' : 'saved: operator restarted') + (m.readyMs !== undefined ? ' (ready in ' + dur(m.readyMs) + ')' : '')
    : 'saved: operator not started: ' + m.errors.length + ' type error' + (m.errors.length === 1 ? '' : 's');
  return [h('tr', { class: 'restart' + (m.ok ? '' : ' failed'), 'data-testid': 'restart' },
    h('td', {}, time(m.at)), h('td', { colspan: 5 }, '↻ ' + text,
      m.errors.length ? h('pre', { 'data-testid': 'compile-error' }, m.errors.join('\n')) : null))];
}

function drawTimeline() {
  const ctl = $('f-controller').value, obj = $('f-object').value.trim(), res = $('f-result').value;
  const showRestarts = $('f-restarts').checked;
  const items = [];
  for (const r of state.reconciles) {
    if (ctl && r.controller !== ctl) continue;
    if (obj && !r.object.includes(obj)) continue;
    if (res === 'success' && r.result !== 'success') continue;
    if (res === 'error' && r.result !== 'error') continue;
    if (res === 'requeue' && (r.result === 'success' || r.result === 'error')) continue;
    items.push({ at: r.startMs, r });
  }
  if (showRestarts) for (const m of state.restarts) items.push({ at: m.at, m });
  items.sort((a, b) => b.at - a.at);
  $('rows').replaceChildren(...items.slice(0, 400).flatMap((i) => i.r ? reconcileRows(i.r) : restartRow(i.m)));
}

function sparkline(values, w, hgt) {
  const max = Math.max(1, ...values);
  const pts = values.map((v, i) => (i * w / Math.max(1, values.length - 1)).toFixed(1) + ',' + (hgt - v / max * (hgt - 2)).toFixed(1));
  const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  svg.setAttribute('width', w); svg.setAttribute('height', hgt); svg.setAttribute('viewBox', '0 0 ' + w + ' ' + hgt);
  const line = document.createElementNS('http://www.w3.org/2000/svg', 'polyline');
  line.setAttribute('points', pts.join(' ')); line.setAttribute('fill', 'none'); line.setAttribute('stroke', '#3451b2');
  svg.append(line);
  return svg;
}

function drawControllers() {
  const last = state.points[state.points.length - 1];
  if (!last || last.controllers.length === 0) {
    $('controllers').replaceChildren(h('p', { class: 'muted' }, 'no controller has reported yet'));
    return;
  }
  const window = state.points.slice(-60);
  $('controllers').replaceChildren(h('div', { class: 'cards' }, last.controllers.map((c) => {
    const series = state.points.map((p) => (p.controllers.find((x) => x.name === c.name) || { reconciles: 0 }).reconciles);
    const sum = (k) => window.reduce((n, p) => n + ((p.controllers.find((x) => x.name === c.name) || {})[k] || 0), 0);
    return h('div', { class: 'card', 'data-testid': 'controller' },
      h('strong', {}, c.name),
      h('div', { class: 'stats' },
        h('span', {}, h('b', {}, c.busy + '/' + c.workers), 'workers busy'),
        h('span', {}, h('b', {}, c.depth), 'queued'),
        h('span', {}, h('b', {}, c.reconciles), 'reconciles/s'),
        h('span', {}, h('b', { class: sum('errors') ? 'bad' : '' }, sum('errors')), 'errors (1 min)'),
        h('span', {}, h('b', {}, sum('requeues')), 'requeues (1 min)')),
      h('div', { class: 'muted' }, 'reconciles per second, last ' + Math.round(series.length / 60 * 10) / 10 + ' min'),
      sparkline(series, 340, 40),
      c.waiting.length ? h('table', { class: 'rows' }, c.waiting.map((w) => h('tr', {},
        h('td', {}, w.key), h('td', {}, w.state + (w.state === 'delayed' ? ' ' + dur(w.inMs) : ' for ' + dur(w.forMs))),
        h('td', { class: 'muted' }, w.cause)))) : h('div', { class: 'muted' }, 'no key waiting'));
  })));
}

function yaml(v, indent) {
  indent = indent || '';
  if (v === null || typeof v !== 'object') return JSON.stringify(v);
  if (Array.isArray(v)) {
    if (v.length === 0) return '[]';
    return v.map((x) => '\n' + indent + '- ' + yaml(x, indent + '  ').replace(/^\n\s*/, '')).join('');
  }
  const keys = Object.keys(v);
  if (keys.length === 0) return '{}';
  return keys.map((k) => '\n' + indent + k + ': ' + yaml(v[k], indent + '  ').replace(/^ /, '')).join('');
}
const toYaml = (v) => yaml(v, '').replace(/^\n/, '').replace(/: \n/g, ':\n');

async function select(uid) {
  state.selected = uid;
  await loadDetail();
}
let detailTimer = 0;
function refreshDetail() {
  if (!state.selected || state.tab !== 'objects') return;
  clearTimeout(detailTimer);
  detailTimer = setTimeout(loadDetail, 250);
}
async function loadDetail() {
  const uid = state.selected;
  const res = await fetch('/api/objects/' + encodeURIComponent(uid));
  if (uid !== state.selected) return;
  state.detail = res.ok ? await res.json() : null;
  drawObjects();
}

function showReconcile(spanId) {
  state.open.add(spanId);
  setTab('timeline');
  requestAnimationFrame(() => {
    const row = document.querySelector('[data-span="' + spanId + '"]');
    if (row) row.scrollIntoView({ block: 'center' });
  });
}

function conditionsTable(versions) {
  const rows = [];
  let last = '';
  for (const v of versions) {
    const conds = ((v.object.status || {}).conditions || []);
    const text = conds.map((c) => c.type + '=' + c.status + (c.reason ? ' (' + c.reason + ')' : '')).join(', ');
    if (text === last) continue;
    last = text;
    rows.push(h('tr', {}, h('td', {}, time(v.at)), h('td', {}, text || '—')));
  }
  return rows.length ? h('table', { class: 'rows' }, rows) : h('div', { class: 'muted' }, 'no conditions');
}

function drawObjects() {
  const byKind = new Map();
  for (const o of state.objects.values()) {
    const k = o.kind + (o.served ? '' : ' (owned)');
    if (!byKind.has(k)) byKind.set(k, []);
    byKind.get(k).push(o);
  }
  const kinds = [...byKind.keys()].sort((a, b) => (a.includes('(owned)') - b.includes('(owned)')) || a.localeCompare(b));
  $('obj-list').replaceChildren(...(kinds.length ? kinds.flatMap((k) => [h('div', { class: 'kind' }, k),
    ...byKind.get(k).sort((a, b) => a.key.localeCompare(b.key)).map((o) => h('a', { class: o.uid === state.selected ? 'on' : '',
      'data-testid': 'object', onclick: () => select(o.uid) }, o.key + (o.deleted ? ' (deleted)' : '')))])
    : [h('p', { class: 'muted' }, 'no objects yet')]));
  const d = state.detail;
  if (!d || d.summary.uid !== state.selected) { $('obj-detail').replaceChildren(h('p', { class: 'muted' }, 'pick an object')); return; }
  const versions = d.versions;
  const current = versions[versions.length - 1];
  $('obj-detail').replaceChildren(
    h('div', { class: 'card' },
      h('strong', {}, d.summary.kind + ' ' + d.summary.key), ' ',
      h('button', { class: 'act', 'data-testid': 'trigger-reconcile', onclick: async (e) => {
        const res = await fetch('/api/objects/' + encodeURIComponent(d.summary.uid) + '/reconcile', { method: 'POST' });
        e.target.nextSibling.textContent = ' ' + (await res.json()).message;
      } }, 'Reconcile now'), h('span', { class: 'muted' }, ''),
      h('h3', {}, 'Versions (newest first)'),
      versions.slice().reverse().map((v) => h('div', { class: 'version', 'data-testid': 'version' },
        h('div', {}, time(v.at) + ' · ' + v.type.toLowerCase() + ' · resourceVersion ' + v.resourceVersion,
          v.writtenBy ? h('span', {}, ' · written by ', h('a', { class: 'link', 'data-testid': 'written-by',
            onclick: () => showReconcile(v.writtenBy.spanId) }, v.writtenBy.controller + ' reconcile (' + v.writtenBy.call + ')')) : null,
          v.caused ? h('span', {}, ' · caused ', h('a', { class: 'link', 'data-testid': 'caused',
            onclick: () => showReconcile(v.caused.spanId) }, v.caused.controller + ' reconcile of ' + v.caused.object)) : null),
        v.changes.length ? h('table', { class: 'diff', 'data-testid': 'diff' }, v.changes.map((c) => h('tr', {},
          h('td', {}, c.path), h('td', { class: 'before' }, c.op === 'added' ? '' : JSON.stringify(c.before)),
          h('td', {}, '→'), h('td', { class: 'after' }, c.op === 'removed' ? '(removed)' : JSON.stringify(c.after)))))
          : h('div', { class: 'muted' }, v.type === 'ADDED' ? 'first version seen' : 'no field changed'))),
      h('h3', {}, 'Conditions over time'), conditionsTable(versions),
      h('h3', {}, 'Events'), d.events.length ? h('table', { class: 'rows' }, d.events.map((e) => h('tr', { 'data-testid': 'event' },
        h('td', {}, time(e.at)), h('td', { class: e.type === 'Warning' ? 'warn' : '' }, e.type), h('td', {}, e.reason),
        h('td', {}, e.message), h('td', { class: 'muted' }, e.source)))) : h('div', { class: 'muted' }, 'no events'),
      h('h3', {}, 'Owned objects'), d.owned.length ? d.owned.map((o) => h('a', { class: 'link', style: 'display:block',
        onclick: () => select(o.uid) }, o.kind + ' ' + o.key)) : h('div', { class: 'muted' }, 'none'),
      h('h3', {}, 'YAML'), h('pre', { 'data-testid': 'yaml' }, current ? toYaml(current.object) : '')));
}

function drawWebhooks() {
  const rows = state.webhooks.slice().reverse().slice(0, 300).flatMap((w, i) => {
    const id = w.at + w.path + i;
    const open = state.openHooks.has(w.at + w.path);
    const answer = w.allowed ? (w.patch ? 'patched (' + w.patch.length + ' op' + (w.patch.length === 1 ? '' : 's') + ')' : 'allowed')
      : 'denied' + (w.denial && w.denial.code ? ' ' + w.denial.code : '');
    const row = h('tr', { class: 'row', 'data-testid': 'webhook', 'data-id': id,
        onclick: () => { open ? state.openHooks.delete(w.at + w.path) : state.openHooks.add(w.at + w.path); drawWebhooks(); } },
      h('td', {}, time(w.at)), h('td', {}, w.type), h('td', {}, w.operation), h('td', {}, w.kind), h('td', {}, w.object),
      h('td', { class: w.allowed ? 'ok' : 'bad' }, answer), h('td', {}, dur(w.durationMs)));
    const causes = w.denial ? h('div', {}, h('div', { class: 'bad' }, w.denial.message),
      w.denial.causes.map((c) => h('div', { 'data-testid': 'denial-cause' }, h('code', {}, c.field || '(object)'), ': ' + c.message))) : null;
    if (!open) return w.denial ? [row, h('tr', {}, h('td', { colspan: 7, class: 'detail' }, causes))] : [row];
    return [row, h('tr', {}, h('td', { colspan: 7, class: 'detail' }, causes,
      w.patch ? h('pre', {}, JSON.stringify(w.patch, null, 2)) : null,
      w.warnings ? h('div', { class: 'warn' }, 'warnings: ' + w.warnings.join('; ')) : null,
      h('h3', {}, 'Request'), h('pre', {}, JSON.stringify(w.request, null, 2))))];
  });
  $('hooks').replaceChildren(...(rows.length ? rows : [h('tr', {}, h('td', { colspan: 7, class: 'muted' }, 'no webhook call yet'))]));
}

function setTab(tab) {
  state.tab = tab;
  for (const b of document.querySelectorAll('#tabs button')) b.classList.toggle('on', b.dataset.tab === tab);
  for (const s of document.querySelectorAll('main > section')) s.hidden = s.id !== tab;
  if (tab === 'objects' && state.selected) loadDetail();
  draw();
}

for (const b of document.querySelectorAll('#tabs button')) b.addEventListener('click', () => setTab(b.dataset.tab));
for (const id of ['f-controller', 'f-object', 'f-result', 'f-restarts']) $(id).addEventListener('input', () => drawTimeline());

const source = new EventSource('/events');
source.addEventListener('open', () => { $('conn').textContent = 'live'; $('conn').className = 'conn live'; });
source.addEventListener('error', () => { $('conn').textContent = 'reconnecting…'; $('conn').className = 'conn'; });
source.addEventListener('snapshot', (e) => {
  const s = JSON.parse(e.data);
  state.limits = s.limits;
  state.reconciles = [];
  for (const r of s.reconciles) upsertReconcile(r);
  state.restarts = s.restarts; state.webhooks = s.webhooks; state.points = s.points;
  state.objects = new Map(s.objects.map((o) => [o.uid, o]));
  redraw();
});
source.addEventListener('reconcile', (e) => { upsertReconcile(JSON.parse(e.data)); redraw(); refreshDetail(); });
source.addEventListener('restart', (e) => {
  const m = JSON.parse(e.data);
  const i = state.restarts.findIndex((x) => x.at === m.at);
  if (i >= 0) state.restarts[i] = m; else state.restarts.push(m);
  cap(state.restarts, state.limits.restarts || 200);
  redraw();
});
source.addEventListener('webhook', (e) => { state.webhooks.push(JSON.parse(e.data)); cap(state.webhooks, state.limits.webhooks || 500); redraw(); });
source.addEventListener('object', (e) => {
  const o = JSON.parse(e.data);
  state.objects.set(o.uid, o);
  if (o.uid === state.selected) refreshDetail();
  redraw();
});
// An open object's Events are read from the cluster with its detail: read again while it stays open.
setInterval(refreshDetail, 3000);
source.addEventListener('controllers', (e) => {
  state.points.push(JSON.parse(e.data));
  cap(state.points, state.limits.controllerPoints || 300);
  if (state.tab === 'controllers') redraw();
});
window.tsopConsole = state;
`;
