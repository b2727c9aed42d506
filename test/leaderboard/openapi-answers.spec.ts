import { OpenApiAnswers } from './openapi-answers.js';

/** The checker the OpenAPI integration test relies on finds what it must. */
describe('OpenApiAnswers against the committed document', () => {
  const check = new OpenApiAnswers();
  const json = 'application/json; charset=utf-8';
  const problem = {
    type: 'about:blank',
    title: 'Not Found',
    status: 404,
    detail: 'unknown ladder "x"',
    instance: '/v1/ladders/x/boards',
    requestId: 'r',
  };
  const boards = { ladder: 'qq-gomoku', boards: [] };

  it('finds the documented path of a concrete one, literal segments first', () => {
    expect(check.template('/v1/ladders/a/players/b/history?limit=2')).toBe(
      '/v1/ladders/{ladder}/players/{player}/history',
    );
    expect(check.template('/v1/ladders/a/player/history')).toBe(
      '/v1/ladders/{ladder}/player/history',
    );
    expect(check.template('/ladders')).toBe('/ladders');
    expect(check.template('/v2/ladders')).toBeNull();
  });

  it('passes a conforming success and problem', () => {
    const url = '/v1/ladders/x/boards';
    expect(
      check.problems('GET', url, { status: 200, contentType: json, text: JSON.stringify(boards) }),
    ).toEqual([]);
    expect(
      check.problems('GET', url, {
        status: 404,
        contentType: 'application/problem+json; charset=utf-8',
        text: JSON.stringify(problem),
      }),
    ).toEqual([]);
  });

  it('fails an undocumented status, media type, field, a missing field, a null where none may be, and a body on a 304', () => {
    const url = '/v1/ladders/x/boards';
    const text = JSON.stringify(boards);
    const failures = [
      check.problems('GET', url, { status: 418, contentType: json, text }),
      check.problems('GET', url, { status: 404, contentType: json, text: JSON.stringify(problem) }),
      check.problems('GET', url, {
        status: 200,
        contentType: json,
        text: JSON.stringify({ ...boards, extra: 1 }),
      }),
      check.problems('GET', url, {
        status: 200,
        contentType: json,
        text: JSON.stringify({ boards: [] }),
      }),
      check.problems('GET', url, {
        status: 200,
        contentType: json,
        text: JSON.stringify({ ...boards, ladder: null }),
      }),
      check.problems('GET', '/v1/ladders/x/leaderboard', {
        status: 304,
        contentType: null,
        text: '{}',
      }),
      check.problems('DELETE', url, { status: 200, contentType: json, text }),
    ];
    for (const found of failures) expect(found).toHaveLength(1);
  });
});
