/**
 * Hand-written reference cases for the sentence splitter, shared by its unit test and by
 * scripts/measure-splitter.ts (so the figures in docs/splitter.md are reproducible).
 * Not used by the app itself. `expected` lists the units in order, trimmed.
 */
export interface TrickyCase {
  name: string;
  text: string;
  expected: string[];
}

export const TRICKY_CASES: TrickyCase[] = [
  {
    name: 'U.S. mid-sentence and U.K. at a sentence end',
    text: 'The U.S. Senate voted on Tuesday. Talks with the U.K. The deal failed.',
    expected: ['The U.S. Senate voted on Tuesday.', 'Talks with the U.K.', 'The deal failed.'],
  },
  {
    name: 'titles before names',
    text: 'Dr. Smith met Mr. Jones and Mrs. Brown. They talked.',
    expected: ['Dr. Smith met Mr. Jones and Mrs. Brown.', 'They talked.'],
  },
  {
    name: 'abbreviated month before a day',
    text: 'The law took effect on Jan. 5, 2021. Critics objected.',
    expected: ['The law took effect on Jan. 5, 2021.', 'Critics objected.'],
  },
  {
    name: 'e.g. and i.e. before capitalised words',
    text: 'Some fruits, e.g. Apples, keep well. Others, i.e. Berries, do not.',
    expected: ['Some fruits, e.g. Apples, keep well.', 'Others, i.e. Berries, do not.'],
  },
  {
    name: 'et al. with a year',
    text: 'Smith et al. (2020) found no effect. Later work disagreed.',
    expected: ['Smith et al. (2020) found no effect.', 'Later work disagreed.'],
  },
  {
    name: 'No. before a number',
    text: 'He wore the No. 5 shirt. Fans cheered.',
    expected: ['He wore the No. 5 shirt.', 'Fans cheered.'],
  },
  {
    name: 'decimals and numbers with commas',
    text: 'Growth was 3.5 percent in 2019. The film grossed $181,674,817. It cost $160 million.',
    expected: ['Growth was 3.5 percent in 2019.', 'The film grossed $181,674,817.', 'It cost $160 million.'],
  },
  {
    name: 'initials in a name',
    text: 'The book was written by J. K. Rowling. It sold well.',
    expected: ['The book was written by J. K. Rowling.', 'It sold well.'],
  },
  {
    name: 'sentence ending inside straight double quotes',
    text: 'He said, "We will win." Then he left.',
    expected: ['He said, "We will win."', 'Then he left.'],
  },
  {
    name: 'sentence ending inside single quotes',
    text: "She called it 'a disaster.' Nobody agreed.",
    expected: ["She called it 'a disaster.'", 'Nobody agreed.'],
  },
  {
    name: 'curly quotes',
    text: 'The minister said “this is over.” The opposition disagreed.',
    expected: ['The minister said “this is over.”', 'The opposition disagreed.'],
  },
  {
    name: 'question inside quotes followed by a lower-case verb',
    text: '"Why now?" he asked. Nobody answered.',
    expected: ['"Why now?" he asked.', 'Nobody answered.'],
  },
  {
    name: 'ellipsis inside and at the end of a sentence',
    text: 'He paused... and went on. Then silence… The end.',
    expected: ['He paused... and went on.', 'Then silence…', 'The end.'],
  },
  {
    name: 'bullet list after an introduction',
    text: 'Key points:\n- Cases rose\n- Deaths fell\n* Schools reopened',
    expected: ['Key points:', '- Cases rose', '- Deaths fell', '* Schools reopened'],
  },
  {
    name: 'numbered list with blank lines',
    text: 'Two films share the name:\n\n1. Veeram (2014), a Tamil film.\n\n2. Veeram (2016), a drama.',
    expected: ['Two films share the name:', '1. Veeram (2014), a Tamil film.', '2. Veeram (2016), a drama.'],
  },
  {
    name: 'numbered items on one line',
    text: 'Steps: 1. Mix the flour. 2. Bake it.',
    expected: ['Steps: 1. Mix the flour.', '2. Bake it.'],
  },
  {
    name: 'line break without punctuation',
    text: 'Here is a summary\nThe film made money.',
    expected: ['Here is a summary', 'The film made money.'],
  },
  {
    name: 'wrapped line continues the sentence',
    text: 'The committee approved the plan\nafter a long debate. It starts in May.',
    expected: ['The committee approved the plan\nafter a long debate.', 'It starts in May.'],
  },
  {
    name: 'sentence ending inside parentheses',
    text: 'Cases rose. (The figures are provisional.) Officials will update them.',
    expected: ['Cases rose.', '(The figures are provisional.)', 'Officials will update them.'],
  },
  {
    name: 'parenthetical abbreviation',
    text: 'The ministry of defence (MoD) said so. It declined to comment.',
    expected: ['The ministry of defence (MoD) said so.', 'It declined to comment.'],
  },
  {
    name: 'PTB-tokenised lower-case CNN/DM text',
    text: "kilmarnock 's manager said . he added that the club would appeal .",
    expected: ["kilmarnock 's manager said .", 'he added that the club would appeal .'],
  },
  {
    name: 'PTB text with a.m. before a lone period',
    text: "the boy 's father said he left at 4:45 a.m. . but the thief did n't notice .",
    expected: ["the boy 's father said he left at 4:45 a.m. .", "but the thief did n't notice ."],
  },
  {
    name: 'PTB text with u.s. mid-sentence',
    text: 'she moved to the u.s. from ukraine in 1991 . the pair were close .',
    expected: ['she moved to the u.s. from ukraine in 1991 .', 'the pair were close .'],
  },
  {
    name: 'lower-cased text with attached periods',
    text: 'jodie bredo, 26, is a lookalike. admits that she fancies prince harry.',
    expected: ['jodie bredo, 26, is a lookalike.', 'admits that she fancies prince harry.'],
  },
  {
    name: 'exclamation and question marks',
    text: 'What a result! Can they repeat it? Time will tell.',
    expected: ['What a result!', 'Can they repeat it?', 'Time will tell.'],
  },
  {
    name: 'time with p.m. at a sentence end',
    text: 'The crash happened at 2 p.m. The road was closed.',
    expected: ['The crash happened at 2 p.m.', 'The road was closed.'],
  },
  {
    name: 'St. as part of a name',
    text: 'He grew up in St. Louis. He moved away at 18.',
    expected: ['He grew up in St. Louis.', 'He moved away at 18.'],
  },
  {
    name: 'abbreviation followed by a lower-case word',
    text: 'The plant employs approx. two thousand people. Most live nearby.',
    expected: ['The plant employs approx. two thousand people.', 'Most live nearby.'],
  },
  {
    name: 'leading space and trailing newline (FaithBench style)',
    text: ' The film made $181 million. It cost $160 million. \n',
    expected: ['The film made $181 million.', 'It cost $160 million.'],
  },
  {
    name: 'URL and e-mail inside a sentence',
    text: 'See example.com or write to info@example.org for details. Thanks.',
    expected: ['See example.com or write to info@example.org for details.', 'Thanks.'],
  },
  {
    name: 'Inc. at a sentence end',
    text: 'The shares belong to Apple Inc. The deal closed in March.',
    expected: ['The shares belong to Apple Inc.', 'The deal closed in March.'],
  },
];
