// The tournaments view: group tables, the play-off group and who advances, from GET /tournaments.
'use strict';

(() => {
  const byId = (id) => document.getElementById(id);
  const NOTES = {
    qualified: 'qualified',
    playoff: 'to the play-off group',
    'playoff-needed': 'play-off needed',
    eliminated: '',
    pending: '',
  };
  let loaded = false;
  const games = new Map();

  async function get(path) {
    const res = await fetch(path);
    const body = await res.json().catch(() => ({}));
    if (!res.ok) throw new Error(body.detail || res.statusText);
    return body;
  }

  const el = (tag, text, className) => {
    const node = document.createElement(tag);
    if (text !== undefined) node.textContent = text;
    if (className) node.className = className;
    return node;
  };

  // Small points carry their sign, as the seed's tables write them.
  const signed = (n) => (n > 0 ? `+${n}` : String(n));

  function noteOf(row) {
    const note = NOTES[row.fate] ?? '';
    if (row.playoffNeeded && row.fate !== 'playoff-needed')
      return `${note ? `${note}; ` : ''}tied with ${row.tiedWith.join(', ')}`;
    if (row.fate === 'playoff-needed')
      return `play-off needed (tied with ${row.tiedWith.join(', ')})`;
    return note;
  }

  function table(title, group, subtitle) {
    const box = el('section', undefined, 'group');
    box.dataset.group = group.id;
    box.appendChild(el('h3', title));
    if (subtitle) box.appendChild(el('p', undefined, 'muted')).append(...[subtitle].flat());
    const t = el('table');
    const head = el('tr');
    for (const h of ['#', 'player', 'played', 'match points', 'small points', 'note'])
      head.appendChild(el('th', h));
    t.appendChild(el('thead')).appendChild(head);
    const body = t.appendChild(el('tbody'));
    for (const row of group.standings) {
      const tr = el('tr', undefined, row.fate);
      tr.dataset.player = row.player;
      for (const v of [
        row.position,
        row.player,
        row.played,
        row.matchPoints,
        signed(row.smallPoints),
        noteOf(row),
      ])
        tr.appendChild(el('td', String(v)));
      body.appendChild(tr);
    }
    box.appendChild(t);
    const list = el('ul', undefined, 'matches');
    for (const m of group.matches) {
      if (m.status === 'scheduled') continue;
      const games = m.games.filter((g) => !g.counted).length;
      const extra = games > 0 ? ` (${games} game${games > 1 ? 's' : ''} not counted)` : '';
      const how = m.noShow ? ` · ${m.noShow} did not show up` : '';
      const state = m.status === 'finished' ? '' : ' · playing';
      list.appendChild(
        el(
          'li',
          `${m.players[0]} – ${m.players[1]} ${m.score[0]}:${m.score[1]}${how}${state}${extra}`,
        ),
      );
    }
    box.appendChild(list);
    return box;
  }

  const who = (qs) =>
    qs.length === 0
      ? 'none yet'
      : qs.map((q) => `${q.player} (${q.group} #${q.position})`).join(', ');

  async function showTournament(id) {
    byId('tournament-message').textContent = '';
    const groups = byId('groups');
    try {
      const t = await get(`/v1/tournaments/${encodeURIComponent(id)}`);
      groups.replaceChildren(
        ...t.groups.map((g) =>
          table(/^group\b/i.test(g.id) ? g.id : `Group ${g.id}`, g, [
            ...gameOf(g.ladder),
            g.complete ? ' · complete' : ' · in progress',
          ]),
        ),
      );
      const playoff = byId('playoff');
      playoff.replaceChildren();
      if (t.playoff) {
        const subtitle =
          t.playoff.players === null
            ? 'entrants known once every group has placed its next player'
            : `top ${t.playoff.places} go through · ${t.playoff.players.join(', ')}`;
        playoff.appendChild(table(`Play-off group (${t.playoff.id})`, t.playoff, subtitle));
      }
      const adv = byId('advancement');
      adv.replaceChildren(el('h3', 'Advancement'));
      const facts = adv.appendChild(el('dl'));
      for (const [k, v] of [
        ['through', who(t.advancement.qualified)],
        ['to the play-off group', who(t.advancement.toPlayoff)],
        ['play-off needed', who(t.advancement.playoffNeeded)],
      ]) {
        facts.appendChild(el('dt', k));
        facts.appendChild(el('dd', v)).id = `advancement-${k.replace(/ /g, '-')}`;
      }
      byId('tournament-info').textContent =
        `${t.name} · ${t.complete ? 'finished' : 'in progress'}`;
    } catch (error) {
      groups.replaceChildren();
      byId('tournament-message').textContent = error.message;
    }
  }

  /** A group's game by its name, in its language, with the ladder's id beside. */
  const gameOf = (ladder) => {
    const known = games.get(ladder);
    if (!known?.name) return [ladder];
    const name = el('span', known.name);
    name.lang = known.lang;
    return [name, ` · ${ladder}`];
  };

  async function loadTournaments() {
    const [{ tournaments }, { ladders }] = await Promise.all([
      get('/v1/tournaments'),
      get('/v1/ladders'),
    ]);
    for (const l of ladders) games.set(l.id, l);
    const select = byId('tournament');
    select.replaceChildren(
      ...tournaments.map((t) => {
        const option = el('option', `${t.name} (${t.status})`);
        option.value = t.id;
        return option;
      }),
    );
    const wanted = new URLSearchParams(location.search).get('tournament');
    if (wanted) select.value = wanted;
    if (tournaments.length === 0) {
      byId('tournament-message').textContent =
        'no tournaments are configured (RANKING_TOURNAMENTS_FILE)';
      return;
    }
    await showTournament(select.value);
  }

  function switchTo(tournaments) {
    byId('show-tournaments').classList.toggle('current', tournaments);
    byId('show-boards').classList.toggle('current', !tournaments);
    byId('tournament-section').hidden = !tournaments;
    byId('board-section').hidden = tournaments;
    byId('profile').hidden = tournaments || !byId('profile-name').textContent;
    if (tournaments && !loaded) {
      loaded = true;
      loadTournaments().catch((error) => {
        byId('tournament-message').textContent = error.message;
      });
    }
  }

  byId('show-tournaments').addEventListener('click', () => switchTo(true));
  byId('show-boards').addEventListener('click', () => switchTo(false));
  byId('tournament').addEventListener('change', (e) => void showTournament(e.target.value));
  if (new URLSearchParams(location.search).has('tournament')) switchTo(true);
})();
