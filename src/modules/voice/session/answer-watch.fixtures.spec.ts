import { EXACT_WORDS, loadAnswer, simulate } from '../../../../bench/answer-detection/simulate';
import { LABELLED_ANSWERS } from '../../../../bench/answer-detection/greetings';

/**
 * The labelled set of answers (test/fixtures/answers, made by bench/answer-detection) through
 * AnswerWatch with every word heard: the bench reports the same with the offline recogniser.
 */
describe('AnswerWatch on the labelled answers', () => {
  it('tells at least 95 % right, and every person within 1.5 s of the end of their words', async () => {
    const runs = await Promise.all(
      LABELLED_ANSWERS.map(async (answer) =>
        simulate(answer, await loadAnswer(answer), EXACT_WORDS),
      ),
    );
    const wrong = runs
      .filter((run) => run.outcome !== run.answer.outcome)
      .map((run) => `${run.answer.name}: ${run.outcome} (${run.by})`);
    expect(wrong.length / runs.length).toBeLessThanOrEqual(0.05);
    const people = runs.filter((run) => run.answer.outcome === 'human');
    expect(people.length).toBeGreaterThanOrEqual(10);
    for (const run of people) expect(run.sinceWordsEndedMs).toBeLessThanOrEqual(1_500);
    // Every class is in the set.
    expect(new Set(runs.map((run) => run.answer.outcome)).size).toBe(6);
    if (wrong.length > 0) console.log(`Told wrong: ${wrong.join('; ')}`);
  });
});
