// The leaderboard page: plain browser JavaScript against the service's own API, no libraries.
'use strict';

const $ = (id) => document.getElementById(id);
const state = { ladder: null, view: 'daily', cursor: null, page: 1 };

async function api(path) {
  const res = await fetch(path);
  const body = await res.json().catch(() => ({}));
  if (!res.ok)
    throw new Error(
      Array.isArray(body.message) ? body.message.join('; ') : body.message || res.statusText,
    );
  return body;
}

function cell(row, text) {
  const td = document.createElement('td');
  td.textContent = text;
  row.appendChild(td);
}

const titleOf = (r) =>
  r.title !== undefined ? r.title : r.level !== undefined ? `level ${r.level}` : '';

async function loadLadders() {
  const { ladders } = await api('/ladders');
  const select = $('ladder');
  for (const l of ladders.filter((l) => l.hasLeaderboard)) {
    const option = document.createElement('option');
    option.value = l.id;
    option.textContent = `${l.id} (${l.ruleSet})`;
    select.appendChild(option);
  }
  const wanted = new URLSearchParams(location.search).get('ladder');
  if (wanted) select.value = wanted;
  state.ladder = select.value;
}

async function loadBoard(cursor) {
  $('message').textContent = '';
  const params = new URLSearchParams({ view: state.view, limit: '25' });
  if (cursor) params.set('cursor', cursor);
  const tbody = $('board').querySelector('tbody');
  try {
    const board = await api(`/ladders/${encodeURIComponent(state.ladder)}/leaderboard?${params}`);
    tbody.replaceChildren();
    for (const r of board.rows) {
      const tr = document.createElement('tr');
      tr.dataset.player = r.player;
      [r.rank, r.player, r.rating, titleOf(r), r.wins, r.losses, r.draws].forEach((v) =>
        cell(tr, String(v)),
      );
      tr.addEventListener('click', () => {
        tbody.querySelectorAll('tr.selected').forEach((t) => t.classList.remove('selected'));
        tr.classList.add('selected');
        void showPlayer(r.player);
      });
      tbody.appendChild(tr);
    }
    state.cursor = board.nextCursor;
    $('next').disabled = !board.nextCursor;
    $('board-info').textContent = board.live
      ? `live · updated ${board.updatedAt ?? ''} · ${board.total} ranked`
      : `board of ${board.date} (06:00) · ${board.total} ranked`;
    $('page-info').textContent = `page ${state.page}`;
  } catch (error) {
    tbody.replaceChildren();
    $('message').textContent = error.message;
    $('board-info').textContent = '';
  }
}

function drawChart(points) {
  const svg = $('chart');
  const ns = 'http://www.w3.org/2000/svg';
  svg.replaceChildren();
  if (points.length === 0) return;
  const w = 640,
    h = 240,
    pad = 36;
  const ys = points.map((p) => p.rating);
  const lo = Math.min(...ys),
    hi = Math.max(...ys);
  const span = hi - lo || 1;
  const x = (i) => pad + (points.length === 1 ? 0 : (i / (points.length - 1)) * (w - 2 * pad));
  const y = (v) => h - pad - ((v - lo) / span) * (h - 2 * pad);
  const axis = document.createElementNS(ns, 'path');
  axis.setAttribute('class', 'axis');
  axis.setAttribute('d', `M${pad} ${pad} V${h - pad} H${w - pad}`);
  svg.appendChild(axis);
  for (const [v, at] of [
    [hi, y(hi)],
    [lo, y(lo)],
  ]) {
    const t = document.createElementNS(ns, 'text');
    t.setAttribute('x', '2');
    t.setAttribute('y', String(at + 4));
    t.textContent = String(v);
    svg.appendChild(t);
  }
  const line = document.createElementNS(ns, 'polyline');
  line.setAttribute('class', 'line');
  line.setAttribute(
    'points',
    points.map((p, i) => `${x(i).toFixed(1)},${y(p.rating).toFixed(1)}`).join(' '),
  );
  svg.appendChild(line);
}

const whyText = (why) => {
  if (!why || typeof why !== 'object') return '';
  // Expected scores and the like are long fractions: three decimals are enough to read.
  const show = (v) =>
    typeof v === 'number' && !Number.isInteger(v)
      ? v.toFixed(3)
      : typeof v === 'object'
        ? JSON.stringify(v)
        : String(v);
  return Object.entries(why)
    .map(([k, v]) => `${k}: ${show(v)}`)
    .join(', ');
};

async function showPlayer(player) {
  const ladder = encodeURIComponent(state.ladder);
  const id = encodeURIComponent(player);
  const [profile, first] = await Promise.all([
    api(`/ladders/${ladder}/players/${id}?around=2`),
    api(`/ladders/${ladder}/players/${id}/history?limit=200`).catch(() => ({ entries: [] })),
  ]);
  $('profile').hidden = false;
  $('profile-name').textContent = player;
  const facts = $('profile-facts');
  facts.replaceChildren();
  const fact = (k, v) => {
    const dt = document.createElement('dt');
    dt.textContent = k;
    const dd = document.createElement('dd');
    dd.textContent = v;
    facts.append(dt, dd);
  };
  fact('rating', String(profile.rating));
  if (titleOf(profile)) fact('title / level', titleOf(profile));
  fact(
    'record (W/L/D)',
    `${profile.wins} / ${profile.losses} / ${profile.draws} in ${profile.games} games`,
  );
  fact(
    'live rank',
    profile.live && profile.live.rank !== null
      ? `#${profile.live.rank} of ${profile.live.total}`
      : 'not ranked',
  );
  fact(
    '06:00 rank',
    profile.daily && profile.daily.rank !== null
      ? `#${profile.daily.rank} (${profile.daily.date})`
      : 'not on the board',
  );
  // History comes newest first; the chart runs oldest to newest, starting from the first "before".
  const entries = [...first.entries].reverse();
  const points = entries.length
    ? [{ rating: entries[0].before }, ...entries.map((e) => ({ rating: e.after }))]
    : [];
  drawChart(points);
  const tbody = $('history').querySelector('tbody');
  tbody.replaceChildren();
  for (const e of first.entries.slice(0, 30)) {
    const tr = document.createElement('tr');
    [
      new Date(e.at).toLocaleString(),
      (e.delta > 0 ? '+' : '') + e.delta,
      String(e.after),
      whyText(e.why),
    ].forEach((v) => cell(tr, v));
    tbody.appendChild(tr);
  }
}

async function start() {
  try {
    await loadLadders();
  } catch (error) {
    $('message').textContent = error.message;
    return;
  }
  $('ladder').addEventListener('change', (e) => {
    state.ladder = e.target.value;
    state.page = 1;
    void loadBoard(null);
  });
  $('view').addEventListener('change', (e) => {
    state.view = e.target.value;
    state.page = 1;
    void loadBoard(null);
  });
  $('first').addEventListener('click', () => {
    state.page = 1;
    void loadBoard(null);
  });
  $('next').addEventListener('click', () => {
    if (state.cursor) {
      state.page += 1;
      void loadBoard(state.cursor);
    }
  });
  await loadBoard(null);
}

void start();
