// The leaderboard page: plain browser JavaScript (an ES module, no build step) against the
// service's own API. The state lives in the URL, so every view is a link and Back works.
import { eventTime, sentence, signed, titleOf } from './history.js';
import { drawRatingChart } from './rating-chart.js';

const { luxon } = globalThis;
const $ = (id) => document.getElementById(id);
const PAGE = 25;
/** The live view's refresh while the page is visible. */
const POLL_MS = 4000;

/** Everything a link restores: ?ladder=&view=&date=&at=&rank=&cursor=&player= */
const state = {
  ladder: null,
  view: 'daily',
  date: null,
  at: null,
  rank: null,
  cursor: null,
  player: null,
};
const ladders = new Map();
let board = null;

// --- the API and its errors -------------------------------------------------------------

async function api(path) {
  let res;
  try {
    res = await fetch(path, { headers: { accept: 'application/json' } });
  } catch (error) {
    throw new Error(`the service did not answer (${error.message})`);
  }
  const body = await res.json().catch(() => ({}));
  // Errors are RFC 9457 problem documents: title is the status's phrase, detail what happened.
  if (!res.ok)
    throw new Error(`${res.status} ${body.title ?? res.statusText}: ${body.detail ?? path}`);
  return body;
}

function showError(error) {
  const box = $('error');
  box.textContent = error.message ?? String(error);
  box.hidden = false;
}

function clearError() {
  $('error').hidden = true;
  $('error').textContent = '';
}

// --- small DOM helpers -----------------------------------------------------------------

const el = (tag, text, className) => {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  if (className) node.className = className;
  return node;
};

const ladderLang = () => ladders.get(state.ladder)?.lang ?? 'zh-Hans';
const zone = () => ladders.get(state.ladder)?.timezone ?? 'Asia/Shanghai';

/** Names, ids and titles in the ladder's language: the browser picks a CJK font for them. */
function named(text, tag = 'span') {
  const node = el(tag, text);
  node.lang = ladderLang();
  return node;
}

/** A sentence's parts, its names in the ladder's language. */
const sentenceNodes = (parts) =>
  parts.map((p) => (p.name ? named(p.text) : document.createTextNode(p.text)));

const inZone = (iso, format = 'yyyy-LL-dd HH:mm') =>
  luxon.DateTime.fromISO(iso, { zone: zone() }).toFormat(format);

// --- the URL ----------------------------------------------------------------------------

function readUrl() {
  const q = new URLSearchParams(location.search);
  state.ladder = q.get('ladder') ?? state.ladder ?? [...ladders.keys()][0] ?? null;
  state.view = ['daily', 'day', 'live', 'at'].includes(q.get('view')) ? q.get('view') : 'daily';
  state.date = q.get('date');
  state.at = q.get('at');
  const rank = Number(q.get('rank'));
  state.rank = Number.isInteger(rank) && rank > 0 ? rank : null;
  state.cursor = q.get('cursor');
  state.player = q.get('player');
  if (state.date && !q.has('view')) state.view = 'day';
  if (state.at && !q.has('view')) state.view = 'at';
}

function writeUrl() {
  const q = new URLSearchParams();
  for (const key of ['ladder', 'view', 'date', 'at', 'rank', 'cursor', 'player'])
    if (state[key] !== null && state[key] !== undefined) q.set(key, String(state[key]));
  const url = `${location.pathname}?${q}`;
  if (url !== `${location.pathname}${location.search}`) history.pushState(null, '', url);
}

/** A user's change: the new state goes into the URL (a history entry) and is shown. */
function go(changes, { board: reloadBoard = true } = {}) {
  Object.assign(state, changes);
  writeUrl();
  clearError();
  controlsFromState();
  const work = [];
  if (reloadBoard) work.push(loadBoard());
  if ('player' in changes) work.push(state.player ? loadProfile({ opened: true }) : hideProfile());
  return Promise.all(work);
}

// --- controls ---------------------------------------------------------------------------

function controlsFromState() {
  const select = $('ladder');
  if (
    state.ladder &&
    !ladders.has(state.ladder) &&
    !select.querySelector(`[value="${CSS.escape(state.ladder)}"]`)
  ) {
    // A link to a ladder this service does not have: keep it visible, the API's 404 explains.
    const option = el('option', state.ladder);
    option.value = state.ladder;
    select.appendChild(option);
  }
  select.value = state.ladder ?? '';
  const ladder = ladders.get(state.ladder);
  $('ladder-name').replaceChildren(ladder ? named(ladder.name ?? ladder.id) : '');
  $('ladder-id').textContent = ladder && ladder.name ? ladder.id : (state.ladder ?? '');
  $('view').value = state.view;
  $('date-field').hidden = state.view !== 'day';
  $('at-field').hidden = state.view !== 'at';
  $('at-show').hidden = state.view !== 'at';
  $('at-zone').textContent = zone();
  if (state.at) {
    const at = luxon.DateTime.fromISO(state.at, { zone: zone() });
    if (at.isValid) $('at').value = at.toFormat("yyyy-LL-dd'T'HH:mm:ss");
  }
  if (state.view === 'day') void loadDates();
}

let datesOf = null;
async function loadDates() {
  if (datesOf === state.ladder) {
    $('date').value = state.date ?? '';
    return;
  }
  datesOf = state.ladder;
  const select = $('date');
  try {
    const { boards } = await api(`/v1/ladders/${encodeURIComponent(state.ladder)}/boards`);
    select.replaceChildren(
      ...boards.map((b) => {
        const option = el('option', `${b.date} · ${b.players} players`);
        option.value = b.date;
        return option;
      }),
    );
    if (state.date && !boards.some((b) => b.date === state.date)) {
      const option = el('option', `${state.date} (not stored)`);
      option.value = state.date;
      select.prepend(option);
    }
    select.value = state.date ?? '';
    if (!state.date && boards.length > 0)
      void go({ date: boards[0].date, rank: null, cursor: null });
  } catch (error) {
    datesOf = null;
    showError(error);
  }
}

/** The moment input read in the ladder's zone, as RFC 3339 with its offset. */
function atFromInput() {
  const value = $('at').value;
  if (!value) return null;
  const at = luxon.DateTime.fromISO(value, { zone: zone() });
  return at.isValid ? at.toISO({ suppressMilliseconds: true }) : value;
}

// --- the board --------------------------------------------------------------------------

function boardQuery() {
  const q = new URLSearchParams({ limit: String(PAGE) });
  if (state.view === 'live') q.set('view', 'live');
  if (state.view === 'daily') q.set('view', 'daily');
  if (state.view === 'day') {
    q.set('view', 'daily');
    if (state.date) q.set('date', state.date);
  }
  if (state.view === 'at') {
    q.set('view', 'live');
    q.set('at', state.at ?? '');
  }
  if (state.rank) q.set('rank', String(state.rank));
  else if (state.cursor) q.set('cursor', state.cursor);
  return q;
}

let loading = 0;
async function loadBoard({ quiet = false } = {}) {
  if (!state.ladder) return;
  const ticket = ++loading;
  try {
    const answer = await api(
      `/v1/ladders/${encodeURIComponent(state.ladder)}/leaderboard?${boardQuery()}`,
    );
    if (ticket !== loading) return;
    board = answer;
    drawBoard(answer);
  } catch (error) {
    if (ticket !== loading) return;
    showError(error);
    if (!quiet) {
      board = null;
      $('board').querySelector('tbody').replaceChildren();
      $('board-info').textContent = '';
      $('page-info').textContent = '';
    }
  }
}

function boardInfo(b) {
  if (state.view === 'at')
    return `as of ${inZone(state.at, 'yyyy-LL-dd HH:mm:ss')} (${zone()}) · ${b.total} ranked`;
  if (b.live)
    return `live · updated ${b.updatedAt ? inZone(b.updatedAt, 'yyyy-LL-dd HH:mm:ss') : 'never'} · ${b.total} ranked · refreshes by itself`;
  return `board of ${b.date} (06:00, ${zone()}) · ${b.total} ranked`;
}

function drawBoard(b) {
  const tbody = $('board').querySelector('tbody');
  const rows = b.rows.map((r) => {
    const tr = el('tr');
    tr.dataset.player = r.player;
    tr.dataset.rank = String(r.rank);
    tr.tabIndex = 0;
    if (state.rank !== null && r.rank === state.rank) tr.classList.add('jumped');
    if (r.player === state.player) tr.classList.add('selected');
    const cells = [
      el('td', String(r.rank)),
      el('td'),
      el('td', String(r.rating)),
      el('td'),
      el('td', String(r.wins)),
      el('td', String(r.losses)),
      el('td', String(r.draws)),
    ];
    cells[1].appendChild(named(r.player));
    const title = titleOf(r);
    if (title) cells[3].appendChild(named(title));
    tr.append(...cells);
    return tr;
  });
  tbody.replaceChildren(...rows);
  if (rows.length === 0)
    tbody
      .appendChild(el('tr'))
      .appendChild(el('td', 'no ranked players here yet', 'muted')).colSpan = 7;
  $('board-info').textContent = boardInfo(b);
  const from = b.from ?? 1;
  $('page-info').textContent =
    b.rows.length > 0
      ? `rows ${from}–${from + b.rows.length - 1} of ${b.total}`
      : `${b.total} ranked`;
  $('previous').disabled = from <= 1;
  $('first').disabled = from <= 1;
  $('next').disabled = !b.nextCursor;
}

function openRow(tr) {
  if (tr?.dataset.player) void go({ player: tr.dataset.player }, { board: false });
}

function wireBoard() {
  const tbody = $('board').querySelector('tbody');
  tbody.addEventListener('click', (e) => openRow(e.target.closest('tr')));
  tbody.addEventListener('keydown', (e) => {
    const tr = e.target.closest('tr');
    if (!tr) return;
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      openRow(tr);
    } else if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      (e.key === 'ArrowDown' ? tr.nextElementSibling : tr.previousElementSibling)?.focus();
    }
  });
  $('first').addEventListener('click', () => void go({ rank: null, cursor: null }));
  $('next').addEventListener('click', () => {
    if (board?.nextCursor) void go({ rank: null, cursor: board.nextCursor });
  });
  $('previous').addEventListener('click', () => {
    const from = board?.from ?? 1;
    void go({ rank: from - PAGE > 1 ? from - PAGE : null, cursor: null });
  });
  const jump = () => {
    const rank = Number($('jump').value);
    if (Number.isInteger(rank) && rank > 0) void go({ rank, cursor: null });
    else showError(new Error('jump to rank: give a whole number from 1'));
  };
  $('jump-go').addEventListener('click', jump);
  $('jump').addEventListener('keydown', (e) => {
    if (e.key === 'Enter') {
      e.preventDefault();
      jump();
    }
  });
  $('ladder').addEventListener('change', (e) => {
    // Suggestions belong to the ladder they were asked of.
    $('search').value = '';
    $('search-results').hidden = true;
    void go({ ladder: e.target.value, date: null, rank: null, cursor: null, player: null });
  });
  $('view').addEventListener('change', (e) => {
    const view = e.target.value;
    const at =
      view === 'at'
        ? (state.at ??
          luxon.DateTime.now()
            .setZone(zone())
            .minus({ minutes: 1 })
            .startOf('second')
            .toISO({ suppressMilliseconds: true }))
        : null;
    void go({ view, at, date: view === 'day' ? state.date : null, rank: null, cursor: null });
  });
  $('date').addEventListener('change', (e) =>
    go({ date: e.target.value, rank: null, cursor: null }),
  );
  const showAt = () => go({ at: atFromInput(), rank: null, cursor: null });
  $('at-show').addEventListener('click', showAt);
  $('at').addEventListener('keydown', (e) => {
    if (e.key === 'Enter') {
      e.preventDefault();
      void showAt();
    }
  });
  $('board-controls').addEventListener('submit', (e) => e.preventDefault());
  setInterval(() => {
    if (state.view === 'live' && !document.hidden && !$('board-section').hidden)
      void loadBoard({ quiet: true });
  }, POLL_MS);
}

// --- player search ----------------------------------------------------------------------

function wireSearch() {
  const input = $('search');
  const list = $('search-results');
  let timer = null;
  let asked = 0;
  const close = () => {
    list.hidden = true;
    list.replaceChildren();
  };
  const choose = (player) => {
    close();
    input.value = player;
    void go({ player }, { board: false });
  };
  input.addEventListener('input', () => {
    clearTimeout(timer);
    // As typed: an id may begin or end with a space.
    const prefix = input.value;
    if (!prefix.trim()) return close();
    timer = setTimeout(async () => {
      const ticket = ++asked;
      try {
        const q = new URLSearchParams({ prefix, limit: '10' });
        const found = await api(`/v1/ladders/${encodeURIComponent(state.ladder)}/players?${q}`);
        if (ticket !== asked) return;
        list.replaceChildren(
          ...found.players.map((p) => {
            const li = el('li');
            const button = el('button');
            button.type = 'button';
            button.dataset.player = p.player;
            button.append(named(p.player), ` · ${p.rating}`);
            const title = titleOf(p);
            if (title) button.append(' · ', named(title));
            button.addEventListener('click', () => choose(p.player));
            li.appendChild(button);
            return li;
          }),
        );
        if (found.players.length === 0)
          list.appendChild(el('li', 'no player starts with that', 'muted'));
        list.hidden = false;
      } catch (error) {
        showError(error);
      }
    }, 200);
  });
  input.addEventListener('keydown', (e) => {
    if (e.key === 'ArrowDown') {
      e.preventDefault();
      list.querySelector('button')?.focus();
    } else if (e.key === 'Enter') {
      e.preventDefault();
      const first = list.querySelector('button');
      if (first) choose(first.dataset.player);
    } else if (e.key === 'Escape') close();
  });
  list.addEventListener('keydown', (e) => {
    const li = e.target.closest('li');
    if (e.key === 'ArrowDown') li?.nextElementSibling?.querySelector('button')?.focus();
    else if (e.key === 'ArrowUp')
      (li?.previousElementSibling?.querySelector('button') ?? input).focus();
    else if (e.key === 'Escape') {
      close();
      input.focus();
    } else return;
    e.preventDefault();
  });
}

// --- the profile ------------------------------------------------------------------------

function hideProfile() {
  $('profile').hidden = true;
  $('profile-name').textContent = '';
}

/**
 * Up to 1000 entries, newest first. The player is named in the query, never as a path segment:
 * fetch removes a segment "." or ".." (even encoded), and those are player ids too.
 */
async function historyOf(ladder, player) {
  const entries = [];
  let cursor = null;
  do {
    const q = new URLSearchParams({ id: player, limit: '200' });
    if (cursor) q.set('cursor', cursor);
    const page = await api(`/v1/ladders/${ladder}/player/history?${q}`);
    entries.push(...page.entries);
    cursor = page.nextCursor;
  } while (cursor && entries.length < 1000);
  return entries;
}

let profileTicket = 0;
/** `opened`: the user asked for it (not a link or Back), so it may scroll into view. */
async function loadProfile({ opened = false } = {}) {
  const ticket = ++profileTicket;
  const ladder = encodeURIComponent(state.ladder);
  const q = new URLSearchParams({ id: state.player, around: '2' });
  if (state.view === 'at' && state.at) q.set('at', state.at);
  let profile;
  let entries;
  try {
    [profile, entries] = await Promise.all([
      api(`/v1/ladders/${ladder}/player?${q}`),
      historyOf(ladder, state.player),
    ]);
  } catch (error) {
    if (ticket === profileTicket) showError(error);
    return;
  }
  if (ticket !== profileTicket) return;
  $('profile').hidden = false;
  $('profile-name').replaceChildren(named(state.player));
  const facts = $('profile-facts');
  facts.replaceChildren();
  const fact = (k, ...v) => {
    const dd = el('dd');
    dd.append(...v);
    facts.append(el('dt', k), dd);
  };
  fact('rating', String(profile.rating));
  const title = titleOf(profile);
  if (title) fact('title / level', named(title));
  fact(
    'record',
    `${profile.wins} won · ${profile.losses} lost · ${profile.draws} drawn (${profile.games} games)`,
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
      ? `#${profile.daily.rank} (board of ${profile.daily.date})`
      : 'not on the board',
  );
  if (profile.skill)
    fact(
      'skill estimate',
      `μ ${profile.skill.mu.toFixed(1)} ± 2σ ${(2 * profile.skill.sigma).toFixed(1)}`,
    );
  drawRatingChart($('chart'), entries, { player: state.player, zone: zone() });
  $('chart-legend').textContent = entries.some((e) => e.skill)
    ? 'the band is the skill estimate, μ ± 2σ (right axis)'
    : '';
  const tbody = $('history').querySelector('tbody');
  tbody.replaceChildren(
    ...entries.slice(0, 100).map((e) => {
      const tr = el('tr');
      const when = el('td');
      const time = el('time', inZone(eventTime(e)));
      time.dateTime = eventTime(e);
      when.appendChild(time);
      const what = el('td');
      what.append(...sentenceNodes(sentence(e, state.player)));
      const rating = el('td', String(e.after));
      rating.title = `${e.before} ${signed(e.delta)}`;
      tr.append(when, what, rating);
      return tr;
    }),
  );
  if (entries.length > 100)
    tbody
      .appendChild(el('tr'))
      .appendChild(
        el('td', `… ${entries.length - 100} older changes are in the chart`, 'muted'),
      ).colSpan = 3;
  document
    .querySelectorAll('#board tbody tr')
    .forEach((tr) => tr.classList.toggle('selected', tr.dataset.player === state.player));
  // On a phone the profile sits under the board: bring it into view.
  if (opened && matchMedia('(max-width: 700px)').matches) $('profile').scrollIntoView();
}

// --- start ------------------------------------------------------------------------------

async function start() {
  wireBoard();
  wireSearch();
  $('zoom-reset').addEventListener('click', () =>
    globalThis.Chart.getChart($('chart'))?.resetZoom(),
  );
  window.addEventListener('popstate', () => {
    readUrl();
    clearError();
    controlsFromState();
    void loadBoard();
    void (state.player ? loadProfile() : hideProfile());
  });
  try {
    const answer = await api('/v1/ladders');
    const select = $('ladder');
    for (const l of answer.ladders.filter((l) => l.hasLeaderboard)) {
      ladders.set(l.id, l);
      const option = el('option', l.name ? `${l.name} · ${l.id}` : l.id);
      option.value = l.id;
      if (l.lang) option.lang = l.lang;
      select.appendChild(option);
    }
  } catch (error) {
    showError(error);
    return;
  }
  readUrl();
  controlsFromState();
  await Promise.all([loadBoard(), state.player ? loadProfile() : null]);
  document.body.dataset.ready = 'true';
}

void start();
