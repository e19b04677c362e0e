/** `finish`: the change is done; a summary (and notes for the pull request) end the loop. */
import { z } from 'zod';
import type { Tool } from './tool.js';

const schema = z
  .object({
    summary: z.string().min(1).describe('What was changed and why, in a sentence or two.'),
    notes: z.string().optional().describe('Anything the reviewer should know.'),
  })
  .strict();

export const finishTool: Tool<z.infer<typeof schema>> = {
  name: 'finish',
  description: 'Say the change is complete, with a short summary; call it once, last.',
  schema,
  run(args) {
    return Promise.resolve({
      text: 'finished',
      summary: 'finished',
      finish: { summary: args.summary, ...(args.notes ? { notes: args.notes } : {}) },
    });
  },
};
