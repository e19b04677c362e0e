/** A commit message's trailer `Key: value` (the last one when repeated); one word, no spaces. */
export function trailerValue(message: string, key: string): string | undefined {
  const pattern = new RegExp(`^${key}:[ \\t]*(\\S+)[ \\t]*$`, 'gim');
  let value: string | undefined;
  for (const m of message.matchAll(pattern)) value = m[1];
  return value;
}
