/** One `chat` call as the LLM client's steps share it, and the head of its transcript entry. */
import type { ChatRequest, TranscriptEntry, TranscriptHook } from './types.js';

export interface ChatCall {
  /** 1-based number of the call in the client's life. */
  index: number;
  /** Clock reading when the call began. */
  started: number;
  request: ChatRequest;
  /** The prompt as sent (secrets masked). */
  messages: ChatRequest['messages'];
  transcriptRequest: TranscriptEntry['request'];
}

/** What ending a call needs from its client. */
export interface CallEnd {
  now: () => number;
  onTranscript?: TranscriptHook | undefined;
}

/** The fields of a transcript entry that say which call it is. */
export function transcriptHead(
  call: ChatCall,
): Pick<TranscriptEntry, 'index' | 'stage' | 'model' | 'request'> {
  return {
    index: call.index,
    stage: call.request.stage,
    model: call.request.model,
    request: call.transcriptRequest,
  };
}
