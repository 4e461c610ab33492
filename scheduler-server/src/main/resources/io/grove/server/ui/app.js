// Grove's dashboard: pools, operations and nodes, read from the scheduler's API (docs/api.md): at
// once when its event stream (GET /api/v1/events) says an operation or a job changed, and every
// few seconds for shares and usage (every two seconds without the stream). Everything is built with
// DOM calls and textContent: nothing from the API is ever parsed as HTML. The token (or, on a local
// cluster, the user) is kept in this tab's sessionStorage.
'use strict';

const REFRESH_MS = 2000;
const REFRESH_STREAMING_MS = 5000;
// what the event stream did, for the page's tests: whether it is open, and how many events came
window.groveStream = { open: false, events: 0 };
let changeQueued = null;
const session = window.sessionStorage;
const expanded = new Set();
let timer = null;
let currentTree = null;

// ---------------------------------------------------------------- the API

class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

function who(headers) {
  const token = session.getItem('grove.token');
  const user = session.getItem('grove.user');
  if (token) {
    headers.Authorization = 'Bearer ' + token;
  } else if (user) {
    headers['X-Grove-User'] = user;
  }
  return headers;
}

async function api(path, options = {}) {
  const headers = who({ Accept: 'application/json' });
  if (options.body !== undefined) {
    headers['Content-Type'] = 'application/json';
  }
  const response = await fetch('/api/v1' + path, {
    method: options.method || 'GET',
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
    cache: 'no-store',
  });
  const text = await response.text();
  let body = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch (e) {
    body = null;
  }
  if (!response.ok) {
    if (response.status === 401) {
      showLogin('This scheduler needs a token: ' + (body && body.message ? body.message : 'unauthenticated'));
    }
    throw new ApiError(response.status, body && body.code ? body.code : 'HTTP_' + response.status,
      body && body.message ? body.message : text);
  }
  return body;
}

// ---------------------------------------------------------------- DOM helpers

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) {
      continue;
    }
    if (key === 'class') {
      node.className = value;
    } else if (key.startsWith('on')) {
      node.addEventListener(key.substring(2), value);
    } else {
      node.setAttribute(key, value === true ? '' : String(value));
    }
  }
  for (const child of children.flat()) {
    if (child !== undefined && child !== null && child !== false) {
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
  }
  return node;
}

function svg(tag, attrs) {
  const node = document.createElementNS('http://www.w3.org/2000/svg', tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    node.setAttribute(key, String(value));
  }
  return node;
}

function percent(share) {
  return share === undefined || share === null ? '-' : (100 * share).toFixed(share < 0.1 && share > 0 ? 1 : 0) + '%';
}

function bar(kind, share) {
  const inner = el('span');
  inner.style.width = Math.max(0, Math.min(100, 100 * (share || 0))) + '%';
  return el('span', {}, el('span', { class: 'bar ' + kind, title: kind + ' ' + percent(share) }, inner),
    el('span', { class: 'pct' }, percent(share)));
}

function dominant(shares) {
  return shares ? Math.max(...Object.values(shares)) : 0;
}

function amounts(a) {
  if (!a || Object.keys(a).length === 0) {
    return '-';
  }
  const parts = [];
  for (const [key, value] of Object.entries(a)) {
    if (value === 0) {
      continue;
    }
    parts.push(key === 'memory' || key === 'network' ? bytes(value) + (key === 'network' ? ' net' : '') : value + ' ' + key);
  }
  return parts.length ? parts.join(', ') : '0';
}

function bytes(value) {
  const units = ['B', 'Ki', 'Mi', 'Gi', 'Ti', 'Pi'];
  let v = value;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return (Number.isInteger(v) ? v : v.toFixed(1)) + units[i];
}

function time(iso) {
  return iso ? new Date(iso).toLocaleString() : '-';
}

function message(text, error) {
  const box = document.getElementById('message');
  box.textContent = text || '';
  box.className = 'message' + (error ? ' error' : '');
}

// ---------------------------------------------------------------- who is asking

function showLogin(why) {
  const form = document.getElementById('login');
  document.getElementById('login-why').textContent = why;
  form.hidden = false;
}

function renderWho() {
  const who = document.getElementById('who');
  who.replaceChildren();
  const token = session.getItem('grove.token');
  const user = session.getItem('grove.user');
  if (token) {
    who.append('signed in with a token', el('button', { onclick: forget, 'data-test': 'forget' }, 'Forget'));
  } else {
    who.append(user ? 'acting as ' + user : 'read only (local: choose a user to act)',
      el('button', { onclick: () => showLogin('Act as a user of this local cluster, or give a token.') }, user ? 'Change' : 'Act as…'));
  }
}

function forget() {
  session.removeItem('grove.token');
  session.removeItem('grove.user');
  renderWho();
  route();
}

function setupLogin() {
  const form = document.getElementById('login');
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const token = document.getElementById('login-token').value.trim();
    const user = document.getElementById('login-user').value.trim();
    session.removeItem('grove.token');
    session.removeItem('grove.user');
    if (token) {
      session.setItem('grove.token', token);
    } else if (user) {
      session.setItem('grove.user', user);
    }
    document.getElementById('login-token').value = '';
    form.hidden = true;
    renderWho();
    route();
  });
}

// ---------------------------------------------------------------- pools

async function renderPools(main, tree) {
  const trees = await api('/pool_trees');
  const chosen = tree || currentTree || (trees.find((t) => t.default) || trees[0] || {}).name;
  currentTree = chosen;
  const pools = await api('/pool_trees/' + encodeURIComponent(chosen) + '/pools');
  const tabs = el('div', { class: 'tabs' }, trees.map((t) => el('button', {
    class: t.name === chosen ? 'active' : '', 'data-test': 'tree-' + t.name,
    onclick: () => { location.hash = '#/pools/' + encodeURIComponent(t.name); },
  }, 'tree ' + t.name + ' (' + t.nodes + ' nodes)')));
  const table = el('table', { 'data-test': 'pools' }, el('thead', {}, el('tr', {},
    ['pool', 'mode', 'weight', 'guarantee', 'integral', 'fair share', 'usage', 'demand', 'ops r/p/max', 'starving']
      .map((h) => el('th', {}, h)))));
  const body = el('tbody');
  const depth = {};
  for (const pool of pools) {
    const level = pool.parent && depth[pool.parent] !== undefined ? depth[pool.parent] + 1 : 0;
    depth[pool.name] = level;
    const root = pool.name === '<Root>';
    const ops = pool.operations || {};
    const max = ops.max_running === undefined || ops.max_running >= 2147483647 ? '-' : ops.max_running;
    const row = el('tr', { class: 'clickable', 'data-pool': pool.name, onclick: () => toggle(pool.name) },
      el('td', { class: 'name' }, '\u00a0\u00a0'.repeat(level) + (expanded.has(pool.name) ? '▾ ' : '▸ ') + (root ? '<root>' : pool.name),
        pool.paused && pool.paused.pool === pool.name
          ? el('span', { class: 'starving', 'data-test': 'paused', title: pausedText(pool.paused) },
            pool.paused.drain ? ' drained' : ' paused') : ''),
      el('td', {}, (pool.mode || '').replace('fair_share', 'fair')),
      el('td', { class: 'num' }, root ? '' : pool.weight),
      el('td', {}, amounts(pool.strong_guarantee_resources)),
      el('td', {}, integral(pool)),
      el('td', {}, bar('fair', dominant(pool.fair_share.total))),
      el('td', {}, bar('usage', dominant(pool.usage_share))),
      el('td', {}, bar('demand', dominant(pool.demand_share))),
      el('td', { class: 'num' }, ops.running + '/' + ops.pending + '/' + (root ? '-' : max)),
      el('td', { class: pool.starvation !== 'non_starving' ? 'starving' : '' },
        pool.starvation === 'non_starving' ? '' : pool.starvation.replace(/_/g, ' ')));
    body.append(row);
    if (expanded.has(pool.name)) {
      body.append(el('tr', { class: 'detail' }, el('td', { colspan: 10 }, await poolDetail(chosen, pool))));
    }
  }
  table.append(body);
  main.replaceChildren(el('h2', {}, 'Pools'), tabs, table);
}

function integral(pool) {
  if (!pool.integral_guarantee_type || pool.integral_guarantee_type === 'none') {
    return '';
  }
  let fullest = 0;
  for (const [key, capacity] of Object.entries(pool.integral_pool_capacity || {})) {
    if (capacity > 0) {
      fullest = Math.max(fullest, ((pool.accumulated_resource_volume || {})[key] || 0) / capacity);
    }
  }
  const burst = pool.estimated_burst_usage_duration_seconds;
  return pool.integral_guarantee_type + ' · volume ' + percent(fullest)
    + (burst !== undefined ? ' · burst ~' + Math.round(burst) + ' s' : '');
}

function toggle(name) {
  if (expanded.has(name)) {
    expanded.delete(name);
  } else {
    expanded.add(name);
  }
  route();
}

function pausedText(paused) {
  return 'pool ' + paused.pool + ' is ' + (paused.drain ? 'drained' : 'paused') + ' by ' + paused.by + ' since '
    + paused.since + ': no new jobs start in it' + (paused.drain ? ' and its running jobs are stopped' : '')
    + ' (grove pools resume ' + paused.pool + ')';
}

async function poolDetail(tree, pool) {
  const resources = Object.keys(pool.demand_share);
  const table = el('table', { 'data-test': 'pool-resources' }, el('thead', {}, el('tr', {},
    el('th', {}, 'resource'), el('th', { class: 'num' }, 'fair share'), el('th', { class: 'num' }, 'usage'),
    el('th', { class: 'num' }, 'demand'), el('th', {}, 'guarantee'), el('th', {}, 'limit'))),
    el('tbody', {}, resources.map((r) => el('tr', {}, el('td', {}, r),
      el('td', { class: 'num' }, percent(pool.fair_share.total[r])), el('td', { class: 'num' }, percent(pool.usage_share[r])),
      el('td', { class: 'num' }, percent(pool.demand_share[r])),
      el('td', {}, (pool.strong_guarantee_resources || {})[r] === undefined ? '-' : String(pool.strong_guarantee_resources[r])),
      el('td', {}, (pool.resource_limits || {})[r] === undefined ? '-' : String(pool.resource_limits[r]))))));
  const history = await api('/pool_trees/' + encodeURIComponent(tree) + '/pools/' + encodeURIComponent(pool.name) + '/history');
  const current = { at: new Date().toISOString(), fair_share: dominant(pool.fair_share.total),
    usage_share: dominant(pool.usage_share), demand_share: dominant(pool.demand_share) };
  let month;
  try {
    month = await monthChart(tree, pool.name);
  } catch (e) {
    month = el('p', {}, 'No accounting: ' + e.message);
  }
  return el('div', {}, pool.paused ? el('p', { class: 'starving', 'data-test': 'pause-note' }, pausedText(pool.paused)) : '',
    table, el('h3', {}, 'The last hour: usage against fair share and demand'), chart(history, current),
    el('h3', {}, 'The last 30 days: cpu used against fair share and guarantees'), month);
}

/** A line chart of a pool's samples and its values now: dominant shares of the tree, at most the last hour. */
function chart(history, current) {
  const width = 640;
  const height = 170;
  const left = 36;
  const bottom = 18;
  const root = svg('svg', { class: 'chart', width, height, viewBox: '0 0 ' + width + ' ' + height, 'data-test': 'chart',
    role: 'img', 'aria-label': 'usage, fair share and demand of ' + history.pool + ' over the last hour' });
  const samples = history.samples.concat([current]);
  const now = Date.parse(current.at);
  const from = Math.max(now - 3600 * 1000, Date.parse(samples[0].at) - history.interval_seconds * 1000);
  // scaled to fair share and usage, which are what is read here; demand above them runs along the top
  const top = Math.max(0.01, 1.2 * Math.max(...samples.map((s) => Math.max(s.fair_share, s.usage_share))));
  const demandTop = Math.max(...samples.map((s) => s.demand_share));
  const x = (at) => left + (width - left - 8) * Math.max(0, (Date.parse(at) - from) / (now - from));
  const y = (v) => 6 + (height - bottom - 6) * (1 - v / top);
  root.append(svg('line', { class: 'axis', x1: left, y1: y(0), x2: width - 8, y2: y(0) }));
  root.append(svg('line', { class: 'axis', x1: left, y1: y(top), x2: left, y2: y(0) }));
  for (const v of [0, top / 2, top]) {
    const label = svg('text', { x: 2, y: y(v) + 3 });
    label.textContent = percent(v);
    root.append(label);
  }
  const hour = svg('text', { x: left, y: height - 4 });
  const span = Math.round((now - from) / 1000);
  hour.textContent = (span < 120 ? span + ' s' : Math.round(span / 60) + ' min') + ' ago';
  const nowLabel = svg('text', { x: width - 30, y: height - 4 });
  nowLabel.textContent = 'now';
  root.append(hour, nowLabel);
  for (const [key, css] of [['demand_share', 'demand'], ['fair_share', 'fair'], ['usage_share', 'usage']]) {
    const points = samples.map((s) => x(s.at).toFixed(1) + ',' + y(Math.min(s[key], top)).toFixed(1));
    root.append(svg('polyline', { class: css, points: points.join(' '), 'data-series': css, 'data-now': current[key] }));
  }
  const legend = el('div', { class: 'legend' }, el('span', { class: 'fair' }, '— fair share'),
    el('span', { class: 'usage' }, '— usage'), el('span', { class: 'demand', 'data-test': 'demand-legend' },
      '- - demand' + (demandTop > top ? ' (up to ' + percent(demandTop) + ', above the chart)' : '')),
    el('span', {}, history.samples.length + ' samples, one every ' + history.interval_seconds + ' s, and now'));
  return el('div', {}, root, legend);
}

// ---------------------------------------------------------------- operations

function filters() {
  const params = new URLSearchParams(location.hash.split('?')[1] || '');
  return { user: params.get('user') || '', pool: params.get('pool') || '', state: params.get('state') || '' };
}

function reason(op) {
  const r = op.pending_reason;
  if (r) {
    return r.code === 'max_running_operation_count'
      ? 'queued #' + r.queue_position + ' in ' + r.pool + ': at max_running_operation_count ' + r.limit
      : r.message;
  }
  return op.shortfall ? op.shortfall.message : '';
}

async function renderOperations(main) {
  const f = filters();
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(f)) {
    if (value) {
      query.set(key, value);
    }
  }
  const ops = await api('/operations' + (query.toString() ? '?' + query : ''));
  const form = el('form', { class: 'filters', onsubmit: (event) => {
    event.preventDefault();
    const next = new URLSearchParams();
    for (const key of ['user', 'pool', 'state']) {
      const value = event.target.elements[key].value.trim();
      if (value) {
        next.set(key, value);
      }
    }
    location.hash = '#/operations' + (next.toString() ? '?' + next : '');
  } },
  el('label', {}, 'user ', el('input', { name: 'user', value: f.user, size: 10, 'data-test': 'filter-user' })),
  el('label', {}, 'pool ', el('input', { name: 'pool', value: f.pool, size: 10, 'data-test': 'filter-pool' })),
  el('label', {}, 'state ', el('select', { name: 'state', 'data-test': 'filter-state' },
    ['', 'pending', 'running', 'completed', 'failed', 'aborted'].map((s) => el('option', { value: s, selected: s === f.state }, s || 'any')))),
  el('button', { type: 'submit' }, 'Filter'));
  const table = el('table', { 'data-test': 'operations' }, el('thead', {}, el('tr', {},
    ['id', 'user', 'pools', 'state', 'progress', 'done/running/total', 'fair share', 'usage', 'why it waits']
      .map((h) => el('th', {}, h)))),
  el('tbody', {}, ops.map((op) => el('tr', { 'data-operation': op.id },
    el('td', {}, el('a', { href: '#/operations/' + encodeURIComponent(op.id) }, op.id)),
    el('td', {}, op.user),
    el('td', {}, Object.entries(op.pools).map(([t, p]) => Object.keys(op.pools).length > 1 ? t + ':' + p : p).join(', ')),
    el('td', { class: 'state-' + op.state }, op.state),
    el('td', {}, bar('usage', op.progress.total ? op.progress.completed / op.progress.total : 0)),
    el('td', { class: 'num' }, op.progress.completed + '/' + op.progress.running + '/' + op.progress.total),
    el('td', { class: 'num' }, percent(op.fair_share)),
    el('td', { class: 'num' }, percent(op.usage_share)),
    el('td', { class: 'wrap', 'data-test': 'reason' }, reason(op))))));
  // the API answers a page of at most 1,000; say so rather than pass a part for the whole
  main.replaceChildren(el('h2', {}, 'Operations'), form, table,
    ops.length ? '' : el('p', {}, 'No operations match.'),
    ops.length >= 1000 ? el('p', { 'data-test': 'first-page' }, 'The first 1,000 operations are shown; narrow them with the filters.') : '');
}

/** A predicted band as the page says it: likely, with its earliest and latest. */
function band(b) {
  if (!b || !b.likely) {
    return 'not within a day';
  }
  const likely = time(b.likely);
  return b.earliest && b.latest && b.earliest !== b.latest
    ? 'at about ' + likely + ' (between ' + time(b.earliest) + ' and ' + time(b.latest) + ')' : 'at about ' + likely;
}

async function renderOperation(main, id) {
  const [op, jobs, explanation] = await Promise.all([api('/operations/' + encodeURIComponent(id)),
    api('/operations/' + encodeURIComponent(id) + '/jobs'), api('/operations/' + encodeURIComponent(id) + '/explain')]);
  const fields = el('dl', { class: 'fields', 'data-test': 'operation' },
    ...[['id', op.id], ['title', op.title || ''], ['user', op.user], ['state', op.state],
      ['pools', Object.entries(op.pools).map(([t, p]) => t + ': ' + p).join(', ')],
      ['jobs', op.progress.completed + ' completed, ' + op.progress.running + ' running, ' + op.progress.pending
        + ' pending of ' + op.progress.total + '; ' + op.progress.failed + ' failed, ' + op.progress.aborted + ' aborted'],
      ['weight', op.weight], ['fair share', percent(op.fair_share)], ['usage', percent(op.usage_share)],
      ['submitted', time(op.submitted_at)], ['finished', time(op.finished_at)], ['message', op.message || ''],
      ...(op.images ? [['images', Object.entries(op.images).map(([t, i]) => t + ': ' + i).join(', ')]] : []),
      ...(op.gang ? [['gang', gangText(op.gang)]] : [])]
      .flatMap(([k, v]) => [el('dt', {}, k), el('dd', { 'data-field': k }, v)]));
  const ranks = !op.gang || !op.gang.ranks ? '' : el('table', { 'data-test': 'ranks' }, el('thead', {}, el('tr', {},
    ['rank', 'node', 'job'].map((h) => el('th', {}, h)))),
  el('tbody', {}, op.gang.ranks.map((r) => el('tr', {}, el('td', { class: 'num' }, r.rank), el('td', {}, r.node),
    el('td', {}, r.job_id || 'not started')))));
  const why = el('div', { 'data-test': 'explain' }, explanation.trees.map((tree) => el('div', {},
    el('p', {}, 'tree ' + tree.tree + ' (pool ' + tree.pool + '): ', el('strong', { 'data-test': 'verdict' }, tree.verdict.replace(/_/g, ' '))),
    el('ul', { class: 'checks' }, tree.checks.map((c) => el('li', { class: c.blocks ? 'blocks' : '', 'data-check': c.code },
      (c.blocks ? 'blocks — ' : 'ok — ') + c.code.replace(/_/g, ' ') + ': ' + c.message))))));
  const forecast = explanation.forecast;
  const when = !forecast ? '' : el('div', { 'data-test': 'forecast' },
    el('p', {}, forecast.unknown ? 'start time unknown: ' + forecast.unknown
      : 'expected to start: the next job ' + band(forecast.next_start) + '; the last ' + band(forecast.last_start)),
    el('ul', { class: 'checks' }, (forecast.assumptions || []).map((a) => el('li', {}, 'assuming ' + a))));
  const finished = ['completed', 'failed', 'aborted'].includes(op.state);
  const actions = el('div', { class: 'actions' },
    el('button', { 'data-test': 'abort', disabled: finished, onclick: () => act('abort', id) }, 'Abort'),
    el('label', {}, 'weight ', el('input', { id: 'new-weight', size: 5, 'data-test': 'weight' })),
    el('button', { 'data-test': 'set-weight', disabled: finished, onclick: () => act('weight', id) }, 'Set weight'),
    el('label', {}, 'pool ', el('input', { id: 'new-pool', size: 10, 'data-test': 'pool' })),
    el('button', { 'data-test': 'move', disabled: finished, onclick: () => act('pool', id) }, 'Move'));
  const jobTable = el('table', { 'data-test': 'jobs' }, el('thead', {}, el('tr', {},
    ['job', 'index', 'try', 'state', 'node', 'started', 'finished', 'reason', 'image', 'logs'].map((h) => el('th', {}, h)))),
  el('tbody', {}, jobs.map((job) => el('tr', {},
    el('td', {}, job.id), el('td', { class: 'num' }, job.gang_rank != null ? job.index + ' (rank ' + job.gang_rank + ')' : job.index),
    el('td', { class: 'num' }, job.attempt),
    el('td', { class: 'state-' + job.state }, job.state), el('td', {}, job.node || '-'),
    el('td', {}, time(job.started_at)), el('td', {}, time(job.finished_at)),
    el('td', { class: 'wrap' }, job.preparing || (job.reason || '') + (job.message ? ': ' + job.message.split('\n')[0] : ''),
      job.lost_work_seconds != null ? el('span', { 'data-test': 'lost-work' }, ' — lost ' + Math.round(job.lost_work_seconds)
        + ' s of work' + (job.last_checkpoint ? ' since its last checkpoint at ' + time(job.last_checkpoint) : '')) : ''),
    el('td', { class: 'wrap', 'data-test': 'image' }, job.image ? job.image + (job.image_digest ? ' (' + job.image_digest.slice(0, 19) + '…'
      + (job.image_pull_ms != null ? ', pulled in ' + (job.image_pull_ms / 1000).toFixed(1) + ' s' : '') + ')' : '') : ''),
    el('td', {}, el('a', { href: '#/operations/' + encodeURIComponent(id) + '/logs/' + encodeURIComponent(job.id) }, 'stdout'),
      ' ', el('a', { href: '#/operations/' + encodeURIComponent(id) + '/logs/' + encodeURIComponent(job.id) + '/stderr' }, 'stderr'))))));
  main.replaceChildren(el('h2', {}, 'Operation ' + op.id), fields, ...(ranks ? [el('h3', {}, 'Ranks'), ranks] : []),
    el('h3', {}, 'Why is it pending?'), why, when, el('h3', {}, 'Actions'), actions, el('h3', {}, 'Jobs'), jobTable);
}

/** A gang in a line: its state, size and topology, where it sits, or why it waits. */
function gangText(g) {
  const where = g.domain ? ' in ' + g.domain : '';
  const master = g.master_node ? '; rank 0 on ' + g.master_node + ', port ' + g.master_port : '';
  return g.state + ': ' + g.size + ' ranks (topology ' + g.topology + ')' + where + master
    + (g.waiting ? ' — ' + g.waiting : '') + (g.reservation ? ' — ' + reservationText(g.reservation) : '');
}

/** A gang's reservation in a line: where it holds, since when, and its predicted start. */
function reservationText(r) {
  return 'reserved ' + (r.domain ? r.domain + ' (' : '(') + Object.keys(r.nodes).join(', ') + ') since ' + time(r.since)
    + ', predicted start ' + (r.predicted_start ? time(r.predicted_start) : 'unknown (a job in its way has no time limit)');
}

async function act(kind, id) {
  if (!session.getItem('grove.token') && !session.getItem('grove.user')) {
    // read only: say who you are first, rather than meet the API's refusal
    showLogin('Choose the user to act as (or give a token) to ' + (kind === 'abort' ? 'abort ' : 'change ') + id + '.');
    message('choose who you are first: nothing was sent', true);
    return;
  }
  if (kind === 'abort' && !window.confirm('Abort ' + id + '? Its running jobs are stopped, and it cannot be resumed.')) {
    message(id + ' not aborted');
    return;
  }
  try {
    if (kind === 'abort') {
      await api('/operations/' + encodeURIComponent(id) + '/abort', { method: 'POST' });
      message(id + ' aborted');
    } else if (kind === 'weight') {
      const weight = Number(document.getElementById('new-weight').value);
      await api('/operations/' + encodeURIComponent(id), { method: 'PATCH', body: { weight } });
      message(id + ': weight set to ' + weight);
    } else {
      const pool = document.getElementById('new-pool').value.trim();
      await api('/operations/' + encodeURIComponent(id), { method: 'PATCH', body: { pool } });
      message(id + ' moved to ' + pool);
    }
  } catch (e) {
    message('refused: ' + e.message + ' (' + e.code + ')', true);
  }
  route(true);
}

async function renderLog(main, id, job, stream) {
  const chunk = await api('/operations/' + encodeURIComponent(id) + '/jobs/' + encodeURIComponent(job)
    + '/logs?stream=' + stream + '&offset=-65536');
  main.replaceChildren(el('h2', {}, job + ' ' + stream),
    el('p', {}, el('a', { href: '#/operations/' + encodeURIComponent(id) }, '← ' + id),
      ' · the last ' + bytes(chunk.next_offset - chunk.offset) + ' of ' + bytes(chunk.size)),
    el('pre', { class: 'log', 'data-test': 'log' }, chunk.data));
}

// ---------------------------------------------------------------- nodes

// a node's path in its tree's topology levels (block=b1/rack=r07), the levels it lacks after it
function topologyOf(n) {
  const given = n.topology_path
    || Object.entries(n.topology || {}).map(([level, domain]) => level + '=' + domain).join(',');
  const missing = (n.topology_missing || []).map((level) => 'no ' + level).join(', ');
  return [given, missing].filter((part) => part).join('; ') || '-';
}

async function renderNodes(main) {
  const nodes = await api('/nodes');
  nodes.sort((a, b) => a.id.localeCompare(b.id));
  main.replaceChildren(el('h2', {}, 'Nodes'), el('table', { 'data-test': 'nodes' }, el('thead', {}, el('tr', {},
    ['node', 'tree', 'tags', 'topology', 'cpu used/total', 'memory used/total', 'jobs', 'state', 'reserved for',
      'last heartbeat'].map((h) => el('th', {}, h)))),
  el('tbody', {}, nodes.map((n) => el('tr', { 'data-node': n.id },
    el('td', {}, n.id), el('td', {}, n.tree || (n.tree_problem ? '(none: ' + n.tree_problem + ')' : '-')),
    el('td', {}, (n.tags || []).join(', ') || '-'),
    el('td', { 'data-test': 'topology', title: n.topology_missing ? 'in no ' + n.topology_missing.join(', no ') : '' },
      topologyOf(n)),
    el('td', { class: 'num' }, (n.resource_usage.cpu || 0) + ' / ' + (n.resource_limits.cpu || 0)),
    el('td', { class: 'num' }, bytes(n.resource_usage.memory || 0) + ' / ' + bytes(n.resource_limits.memory || 0)),
    el('td', { class: 'num' }, n.jobs),
    el('td', { class: 'state-' + n.state, 'data-test': 'state', title: n.unschedulable || '' },
      n.state + (n.drained ? ', drained' + (n.drained.reason ? ': ' + n.drained.reason : '') : n.unschedulable ? ', no new jobs' : '')),
    el('td', { 'data-test': 'reserved', title: n.reserved_for ? reservationText(n.reserved_for) : '' },
      n.reserved_for ? el('a', { href: '#/operations/' + encodeURIComponent(n.reserved_for.operation_id) },
        'gang ' + n.reserved_for.operation_id) : '-'),
    el('td', {}, time(n.last_heartbeat)))))));
}


// ---------------------------------------------------------------- usage

/** Resource units of the usage page: memory in GiB-hours, the others in their own hours. */
function unitOf(resource) {
  return resource === 'memory' ? { scale: 1024 * 1024 * 1024, name: 'GiB-hours' } : { scale: 1, name: resource + '-hours' };
}

/** A line chart of values over time: one polyline per series, values in the chart's own units. */
function seriesChart(label, times, series, unit) {
  const width = 640;
  const height = 150;
  const left = 48;
  const bottom = 18;
  const root = svg('svg', { class: 'chart', width, height, viewBox: '0 0 ' + width + ' ' + height, role: 'img',
    'aria-label': label, 'data-test': 'usage-chart' });
  const top = Math.max(1e-9, ...series.flatMap((s) => s.values));
  const from = times.length ? times[0] : 0;
  const to = times.length > 1 ? times[times.length - 1] : from + 1;
  const x = (t) => left + (width - left - 8) * ((t - from) / (to - from || 1));
  const y = (v) => 6 + (height - bottom - 6) * (1 - v / top);
  root.append(svg('line', { class: 'axis', x1: left, y1: y(0), x2: width - 8, y2: y(0) }));
  root.append(svg('line', { class: 'axis', x1: left, y1: y(top), x2: left, y2: y(0) }));
  for (const v of [0, top / 2, top]) {
    const text = svg('text', { x: 2, y: y(v) + 3 });
    text.textContent = v >= 100 ? Math.round(v).toLocaleString() : v.toFixed(1);
    root.append(text);
  }
  for (const [at, anchor] of [[from, left], [to, width - 90]]) {
    const text = svg('text', { x: anchor, y: height - 4 });
    text.textContent = new Date(at).toISOString().substring(0, 10);
    root.append(text);
  }
  for (const s of series) {
    if (times.length === 1) {
      // one period so far: a point each, not a line of one point (which draws nothing)
      root.append(svg('circle', { class: s.css, cx: ((left + width - 8) / 2).toFixed(1), cy: y(s.values[0]).toFixed(1),
        r: 4, 'data-series': s.css }));
    } else {
      root.append(svg('polyline', { class: s.css, points: s.values.map((v, i) => x(times[i]).toFixed(1) + ','
        + y(v).toFixed(1)).join(' '), 'data-series': s.css }));
    }
  }
  const legend = el('div', { class: 'legend' }, ...series.map((s) => el('span', { class: s.css }, '— ' + s.name)),
    el('span', {}, unit));
  return el('div', {}, root, legend);
}

/** Rows of a usage report per period, as series of one group: a value per period for each kind. */
function periodSeries(rows, resource, kinds, scale) {
  const times = [...new Set(rows.map((r) => Date.parse(r.period)))].sort((a, b) => a - b);
  const at = new Map(times.map((t, i) => [t, i]));
  const values = kinds.map(() => times.map(() => 0));
  for (const row of rows) {
    kinds.forEach((kind, k) => {
      values[k][at.get(Date.parse(row.period))] += ((row.hours[kind] || {})[resource] || 0) / scale;
    });
  }
  return { times, values };
}

const USAGE_KINDS = [['used', 'usage', 'used'], ['fair_share', 'fair', 'fair share'],
  ['strong_guarantee', 'demand', 'strong guarantee'], ['resource_flow', 'flow', 'resource flow'],
  ['burst_guarantee', 'burst', 'burst guarantee']];

async function renderUsage(main) {
  const params = new URLSearchParams(location.hash.split('?')[1] || '');
  const resource = params.get('resource') || 'cpu';
  const days = Number(params.get('days') || 30);
  const report = await api('/usage?by=pool&per=day&since=' + days + 'd');
  const unit = unitOf(resource);
  const groups = new Map();
  for (const row of report.rows) {
    const key = row.tree + ':' + row.key;
    if (!groups.has(key)) {
      groups.set(key, []);
    }
    groups.get(key).push(row);
  }
  const form = el('form', { class: 'filters', onsubmit: (event) => {
    event.preventDefault();
    location.hash = '#/usage?resource=' + event.target.elements.resource.value + '&days=' + event.target.elements.days.value;
  } },
  el('label', {}, 'resource ', el('select', { name: 'resource', 'data-test': 'usage-resource' },
    ['cpu', 'gpu', 'memory', 'user_slots'].map((r) => el('option', { value: r, selected: r === resource }, r)))),
  el('label', {}, 'days ', el('input', { name: 'days', value: days, size: 3 })),
  el('button', { type: 'submit' }, 'Show'));
  const totals = el('table', { 'data-test': 'usage' }, el('thead', {}, el('tr', {},
    ['tree', 'pool', ...USAGE_KINDS.map((k) => k[2])].map((h) => el('th', {}, h)))),
  el('tbody', {}, [...groups.entries()].map(([key, rows]) => el('tr', { 'data-pool': key },
    el('td', {}, rows[0].tree), el('td', {}, rows[0].key),
    ...USAGE_KINDS.map(([kind]) => el('td', { class: 'num', 'data-kind': kind }, (rows.reduce((sum, r) => sum
      + ((r.hours[kind] || {})[resource] || 0), 0) / unit.scale).toFixed(1)))))));
  const csv = el('a', { 'data-test': 'usage-csv', download: 'grove-usage.csv', href: '#', onclick: (event) => {
    const lines = [['tree', 'pool', 'day', 'resource', ...USAGE_KINDS.map((k) => k[0])].join(',')];
    for (const row of report.rows) {
      lines.push([row.tree, row.key, row.period.substring(0, 10), resource,
        ...USAGE_KINDS.map(([kind]) => (((row.hours[kind] || {})[resource] || 0) / unit.scale).toString())]
        .map((f) => /[",\n]/.test(f) ? '"' + f.replace(/"/g, '""') + '"' : f).join(','));
    }
    event.target.href = URL.createObjectURL(new Blob([lines.join('\r\n') + '\r\n'], { type: 'text/csv' }));
  } }, 'Download CSV');
  const charts = [...groups.entries()].map(([key, rows]) => {
    const { times, values } = periodSeries(rows, resource, USAGE_KINDS.map((k) => k[0]), unit.scale);
    const series = USAGE_KINDS.map(([, css, name], k) => ({ css, name, values: values[k] }))
      .filter((s) => s.values.some((v) => v > 0));
    return el('div', { class: 'usage-pool' }, el('h3', {}, key), series.length
      ? seriesChart(resource + ' of ' + key + ' per day', times, series, unit.name + ' per day')
      : el('p', { class: 'hint', 'data-test': 'no-usage' }, 'no ' + unit.name + ' in this period'));
  });
  main.replaceChildren(el('h2', {}, 'Usage'), el('p', {}, 'Resource-hours of each pool per day, used against its '
    + 'guarantees and its fair share, from ' + report.since.substring(0, 10) + ' to ' + report.until.substring(0, 10)
    + ' (' + unit.name + ').'), form, totals, el('p', {}, csv),
  report.rows.length ? '' : el('p', {}, 'No usage recorded in that period.'), ...charts);
}

/** A pool's last month from its hourly metering: average resources held per hour, used against fair share and guarantee. */
async function monthChart(tree, pool) {
  const report = await api('/usage?by=pool&per=hour&since=30d&tree=' + encodeURIComponent(tree) + '&pool='
    + encodeURIComponent(pool));
  if (!report.rows.length) {
    return el('p', {}, 'No metering recorded for this pool yet.');
  }
  const kinds = USAGE_KINDS.map((k) => k[0]);
  const { times, values } = periodSeries(report.rows, 'cpu', kinds, 1);
  const series = USAGE_KINDS.map(([, css, name], k) => ({ css, name, values: values[k] }))
    .filter((s) => s.values.some((v) => v > 0));
  if (!series.length) {
    return el('p', { 'data-test': 'no-usage' }, 'No cpu used, shared or guaranteed in this pool in the last 30 days.');
  }
  return seriesChart('cpu of ' + pool + ' per hour over the last 30 days', times, series, 'cores, the mean of each hour');
}

// ---------------------------------------------------------------- routing

async function route(keepMessage) {
  const hash = location.hash || '#/pools';
  const parts = hash.substring(2).split('?')[0].split('/').map(decodeURIComponent);
  for (const link of document.querySelectorAll('nav a')) {
    link.classList.toggle('active', link.dataset.nav === parts[0]);
  }
  if (keepMessage !== true) {
    message('');
  }
  const main = document.getElementById('main');
  try {
    if (parts[0] === 'operations' && parts[1] && parts[2] === 'logs') {
      await renderLog(main, parts[1], parts[3], parts[4] === 'stderr' ? 'stderr' : 'stdout');
    } else if (parts[0] === 'operations' && parts[1]) {
      await renderOperation(main, parts[1]);
    } else if (parts[0] === 'operations') {
      await renderOperations(main);
    } else if (parts[0] === 'nodes') {
      await renderNodes(main);
    } else if (parts[0] === 'usage') {
      await renderUsage(main);
    } else {
      await renderPools(main, parts[1]);
    }
  } catch (e) {
    if (!(e instanceof ApiError)) {
      throw e;
    }
    if (e.status !== 401) {
      message(e.message + ' (' + e.code + ')', true);
    }
  }
}

function refresh() {
  const editing = document.activeElement && ['INPUT', 'SELECT'].includes(document.activeElement.tagName);
  if (!editing && !location.hash.includes('/logs/')) {
    route(true);
  }
}

function live() {
  clearInterval(timer);
  timer = setInterval(refresh, window.groveStream.open ? REFRESH_STREAMING_MS : REFRESH_MS);
}

// Something happened to an operation or a job: the page is read again, once for a burst of events.
function changed() {
  window.groveStream.events++;
  if (changeQueued === null) {
    changeQueued = setTimeout(() => {
      changeQueued = null;
      refresh();
    }, 200);
  }
}

// Follows the event stream with fetch (an EventSource cannot send the token); comes back after a
// break, asking from the last event seen.
async function follow() {
  let last = null;
  for (;;) {
    try {
      const headers = who({ Accept: 'text/event-stream' });
      if (last !== null) {
        headers['Last-Event-ID'] = last;
      }
      const response = await fetch('/api/v1/events', { headers, cache: 'no-store' });
      if (!response.ok || !response.body) {
        throw new Error('no event stream: ' + response.status);
      }
      window.groveStream.open = true;
      live();
      const reader = response.body.getReader();
      const decoder = new TextDecoder();
      let buffer = '';
      for (;;) {
        const { value, done } = await reader.read();
        if (done) {
          break;
        }
        buffer += decoder.decode(value, { stream: true });
        let end;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const frame = buffer.slice(0, end).split('\n');
          buffer = buffer.slice(end + 2);
          for (const line of frame) {
            if (line.startsWith('id: ')) {
              last = line.substring(4);
            }
          }
          if (frame.some((line) => line.startsWith('data: ') || line === 'event: reset')) {
            changed();
          }
        }
      }
    } catch (e) {
      // the stream broke, or there is none: the page is read every two seconds meanwhile
    }
    window.groveStream.open = false;
    live();
    await new Promise((resume) => setTimeout(resume, 5000));
  }
}

document.addEventListener('DOMContentLoaded', () => {
  setupLogin();
  renderWho();
  window.addEventListener('hashchange', () => route());
  route();
  live();
  follow();
});
