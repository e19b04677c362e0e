/** The "build output" of an answer that was refused before anything was written. */
export function refusalLog(refusal: string): string {
  return [
    'Your answer was refused before anything was written; ./build.sh did not run.',
    'This counts as a failed build. The reason:',
    '',
    refusal.trimEnd(),
    '',
  ].join('\n');
}
