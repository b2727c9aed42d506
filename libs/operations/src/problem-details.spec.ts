import { problemDocument } from './problem-details.js';

describe('problemDocument', () => {
  const base = { path: '/v1/ladders/x?limit=1', requestId: 'r-1' };

  it('builds an RFC 9457 document: about:blank, the status phrase, the path without its query, the request id', () => {
    expect(problemDocument({ ...base, status: 404, detail: 'unknown ladder "x"' })).toEqual({
      type: 'about:blank',
      title: 'Not Found',
      status: 404,
      detail: 'unknown ladder "x"',
      instance: '/v1/ladders/x',
      requestId: 'r-1',
    });
  });

  it('lists what was wrong on a 400: the errors given, or the detail itself', () => {
    const errors = [{ detail: 'limit must be at least 1', name: 'limit', in: 'query' as const }];
    expect(problemDocument({ ...base, status: 400, detail: 'x', errors }).errors).toEqual(errors);
    expect(problemDocument({ ...base, status: 400, detail: 'give one' }).errors).toEqual([
      { detail: 'give one' },
    ]);
  });

  it.each([
    [401, 'Unauthorized'],
    [403, 'Forbidden'],
    [413, 'Payload Too Large'],
    [429, 'Too Many Requests'],
    [500, 'Internal Server Error'],
    [503, 'Service Unavailable'],
  ])('titles %i as %s, with no errors list', (status, title) => {
    const problem = problemDocument({ ...base, status, detail: 'd' });
    expect(problem).toMatchObject({ status, title });
    expect(problem.errors).toBeUndefined();
  });

  it('never answers a success or a made-up status as a problem: those are a 500', () => {
    for (const status of [200, 304, 600, 42.5, NaN])
      expect(problemDocument({ ...base, status, detail: 'd' })).toMatchObject({
        status: 500,
        title: 'Internal Server Error',
      });
  });
});
