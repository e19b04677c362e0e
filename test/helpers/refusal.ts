import { AutofixError } from '../../src/errors.js';

/** The AutofixError `fn` throws; fails the test when it returns or throws something else. */
export function refusal(fn: () => unknown): AutofixError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(AutofixError);
    return err as AutofixError;
  }
  throw new Error('expected a refusal');
}
