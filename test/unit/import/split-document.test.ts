/** Document sentence ranges (shared/split/document.ts): the splitter plus glued boundaries. */
import { describe, expect, it } from 'vitest';
import { splitDocumentSentences } from '../../../shared/split/document';
import { splitSentences } from '../../../shared/split/sentences';
import { TRICKY_CASES } from '../../../shared/split/tricky-cases';

const sentences = (text: string): string[] => splitDocumentSentences(text).map((r) => text.slice(r.start, r.end));

describe('document sentences', () => {
  it.each([
    [
      'a sentence glued to the next',
      'Wreaths were laid at the Cenotaph.Anzac Day commemorates the battle.',
      ['Wreaths were laid at the Cenotaph.', 'Anzac Day commemorates the battle.'],
    ],
    ['after a number', 'He was jailed in 2014.He appealed.', ['He was jailed in 2014.', 'He appealed.']],
    ['after an all-capitals word', 'He moved to the UK.The move failed.', ['He moved to the UK.', 'The move failed.']],
    [
      'a quotation closed before the period',
      'It was "unusual".Africa was next.',
      ['It was "unusual".', 'Africa was next.'],
    ],
    ['a quotation closed after the period', 'He said: "It broke."We waited.', ['He said: "It broke."', 'We waited.']],
    [
      'a quotation opened after the period',
      'They waited."It broke," he said.',
      ['They waited.', '"It broke," he said.'],
    ],
    ['one-word sentences', 'Stop.Go.Now wait.', ['Stop.', 'Go.', 'Now wait.']],
    ['after ? and !', 'Who won?Nobody knew!Then it rained.', ['Who won?', 'Nobody knew!', 'Then it rained.']],
  ])('cuts %s', (_name, text, expected) => {
    expect(sentences(text)).toEqual(expected);
  });

  it.each([
    ['dotted acronyms', 'Officials in the U.S.Army base agreed.'],
    ['e.g. and a.m.', 'Some fruit, e.g.Apples, arrived at 9 a.m.Tuesday.'],
    ['decimals and numbers', 'Growth was 3.5% and No.5 won.'],
    ['St. before a name (read as the saint or street, not a boundary)', 'He studied at St.Andrews for years.'],
    ['titles', 'They met Dr.Smith and Mr.Jones there.'],
    ['initials', 'George W.Bush spoke.'],
    ['web addresses', 'See bbc.co.uk and www.BBC.com/News.Today for more.'],
    ['e-mail addresses', 'Write to a.b@c.com or Jane.Doe@Example.org today.'],
    ['lower-case words after a period', 'Visit DailyMail.com and philly.com daily.'],
  ])('keeps %s whole', (_name, text) => {
    expect(sentences(text)).toEqual([text]);
  });

  it('is the sentence splitter wherever no sentence is glued', () => {
    for (const { text } of TRICKY_CASES) {
      expect(splitDocumentSentences(text)).toEqual(splitSentences(text).map(({ start, end }) => ({ start, end })));
    }
  });

  // Size, not speed: a rescan per candidate would make these long tokens quadratic.
  it('cuts one 195 kB glued token at every boundary, and leaves a 180 kB address whole', () => {
    const glued = 'Ab.Cd"ef."Gh.'.repeat(15_000);
    const ranges = splitDocumentSentences(glued);
    expect(ranges).toHaveLength(45_000);
    expect(ranges.slice(0, 4).map((r) => glued.slice(r.start, r.end))).toEqual(['Ab.', 'Cd"ef."', 'Gh.', 'Ab.']);
    const address = `www.${'ab.Cd.'.repeat(30_000)}`;
    expect(sentences(address)).toEqual([address]);
  });
});
