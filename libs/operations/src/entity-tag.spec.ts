import { entityTag, noneMatchHits } from './entity-tag.js';

describe('entity tags', () => {
  it('tags bytes strongly and stably: the same bytes the same tag, others another', () => {
    const tag = entityTag(Buffer.from('{"rows":[]}'));
    expect(tag).toMatch(/^"[A-Za-z0-9_-]{22}"$/);
    expect(entityTag('{"rows":[]}')).toBe(tag);
    expect(entityTag('{"rows":[1]}')).not.toBe(tag);
  });

  it('matches If-None-Match weakly: the tag, W/ the tag, a list naming it, or *', () => {
    const tag = '"abc"';
    for (const header of ['"abc"', 'W/"abc"', '"x", "abc"', '"x",W/"abc"', '*', ' * '])
      expect(noneMatchHits(header, tag)).toBe(true);
    for (const header of [undefined, '', '"abcd"', 'abc', '"x"'])
      expect(noneMatchHits(header, tag)).toBe(false);
  });
});
