// The support staff's review queue (ADR 35): suspects of win-trading with their evidence, a
// pair's games on a timeline, and what annulling the beneficiary would move. Every request
// carries the review token, kept in this tab's session storage only.
(() => {
  const $ = (id) => document.getElementById(id);
  const state = { suspects: [], ladder: '', chart: null, current: null };

  const showError = (text) => {
    $('error').textContent = text;
    $('error').hidden = text === '';
  };

  async function api(path) {
    const response = await fetch(`review/api/${path}`, {
      headers: { authorization: `Bearer ${$('token').value.trim()}` },
    });
    const body = await response.json();
    if (!response.ok) {
      // A 503 (the review's workers busy) says when to try again.
      const retry = response.headers.get('retry-after');
      const when = retry === null ? '' : ` (try again in ${retry} s)`;
      throw new Error(`${response.status}: ${body.detail ?? response.statusText}${when}`);
    }
    return body;
  }

  const cell = (row, text) => {
    const td = document.createElement('td');
    td.textContent = text;
    row.append(td);
    return td;
  };

  async function signIn() {
    sessionStorage.setItem('review-token', $('token').value.trim());
    const who = await api('whoami');
    const select = $('ladder');
    const chosen = select.value;
    select.replaceChildren(
      ...who.ladders.map((id) =>
        Object.assign(document.createElement('option'), { value: id, textContent: id }),
      ),
    );
    if (who.ladders.includes(chosen)) select.value = chosen;
    return who;
  }

  async function load() {
    showError('');
    await signIn();
    state.ladder = $('ladder').value;
    $('status').textContent = `reading ${state.ladder}…`;
    const report = await api(`ladders/${encodeURIComponent(state.ladder)}/suspects`);
    state.suspects = report.suspects;
    // Past REVIEW_LADDER_GAMES the service judges the latest games only: say so.
    const window =
      report.forgotten > 0
        ? `, the latest since ${report.judgedFrom}; ${report.forgotten} older games not judged`
        : '';
    $('status').textContent =
      `${report.suspects.length} suspects among ${report.games} games of ${report.ladder}${window} (log read through ${report.through})`;
    const body = $('queue').querySelector('tbody');
    body.replaceChildren(
      ...report.suspects.map((s, index) => {
        const row = document.createElement('tr');
        row.className = 'suspect';
        cell(row, s.players[0]);
        cell(row, s.players[1]);
        cell(row, s.score.toFixed(4));
        cell(row, `${s.won} of ${s.games} (expected ${s.expected})`);
        cell(row, s.since);
        const evidence = cell(row, '');
        const list = document.createElement('ul');
        list.append(
          ...s.evidence.map((e) => Object.assign(document.createElement('li'), { textContent: e })),
        );
        evidence.append(list);
        const open = Object.assign(document.createElement('button'), {
          type: 'button',
          textContent: 'Review',
        });
        open.addEventListener('click', () => review(index).catch((e) => showError(e.message)));
        cell(row, '').append(open);
        return row;
      }),
    );
    $('queue').hidden = false;
  }

  async function review(index) {
    const s = state.suspects[index];
    state.current = s;
    const [beneficiary, feeder] = s.players;
    const pair = await api(
      `ladders/${encodeURIComponent(state.ladder)}/pairs/${encodeURIComponent(beneficiary)}/${encodeURIComponent(feeder)}`,
    );
    $('pair-title').textContent = `${beneficiary} against ${feeder}: ${pair.games.length} games`;
    $('dry-run-command').textContent = s.dryRun;
    $('effect').hidden = true;
    let lead = 0;
    const points = pair.games.map((g) => ({ x: g.finishedAt, y: (lead += g.score * 2 - 1) }));
    state.chart?.destroy();
    state.chart = new Chart($('timeline'), {
      type: 'line',
      data: {
        datasets: [
          {
            label: `${beneficiary}'s wins minus losses against ${feeder}`,
            data: points,
            stepped: true,
            pointRadius: 3,
          },
        ],
      },
      options: {
        animation: false,
        parsing: { xAxisKey: 'x', yAxisKey: 'y' },
        scales: { x: { type: 'time' }, y: { title: { display: true, text: 'wins − losses' } } },
      },
    });
    $('pair').hidden = false;
  }

  async function dryRun() {
    const s = state.current;
    const query = new URLSearchParams({ player: s.players[0], since: s.since });
    $('effect-caption').textContent = 'folding the ladder…';
    $('effect').hidden = false;
    const preview = await api(`ladders/${encodeURIComponent(state.ladder)}/dry-run?${query}`);
    $('effect-caption').textContent =
      `Annulling ${preview.player} since ${preview.since} would move ${preview.moved} players (${preview.events} events folded)`;
    const points = (n) => (n > 0 ? `+${n.toFixed(1)}` : n.toFixed(1));
    $('effect')
      .querySelector('tbody')
      .replaceChildren(
        ...preview.changes.map((c) => {
          const row = document.createElement('tr');
          row.className = 'moved';
          cell(row, c.player);
          cell(row, c.before.toFixed(1));
          cell(row, c.after.toFixed(1));
          cell(row, points(c.delta));
          return row;
        }),
      );
  }

  $('token').value = sessionStorage.getItem('review-token') ?? '';
  $('login').addEventListener('submit', (event) => {
    event.preventDefault();
    load().catch((e) => showError(e.message));
  });
  $('dry-run').addEventListener('click', () => dryRun().catch((e) => showError(e.message)));
})();
