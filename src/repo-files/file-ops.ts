/**
 * The system calls the reader makes, as data: one read is a generator of these steps
 * (`read-steps.ts`), driven either with blocking calls (a thread of its own) or without (a
 * process that serves other work). One sequence of checks, two ways to wait for the disk.
 */
import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  openSync,
  readdirSync,
  readlinkSync,
  readSync,
  realpathSync,
  type Dirent,
  type Stats,
} from 'node:fs';
import { close, fstat, lstat, open, read, readdir, readlink, realpath } from 'node:fs';
import { promisify } from 'node:util';

export type FileOp =
  | { op: 'lstat'; path: string }
  | { op: 'open'; path: string }
  | { op: 'fstat'; fd: number }
  | { op: 'readlink'; path: string }
  | { op: 'read'; fd: number; buffer: Buffer; offset: number }
  | { op: 'close'; fd: number }
  | { op: 'readdir'; path: string }
  | { op: 'realpath'; path: string };

/** A failed call, by its error code (the steps decide what it means). */
export class OpFailure {
  constructor(readonly code: string | undefined) {}
}

/** What each step answers. */
export type OpResult = Stats | number | string | Dirent[] | undefined | OpFailure;

/**
 * Never follows a last-component link, never blocks on a FIFO, never becomes a controlling
 * terminal; the reader only opens what an `lstat` showed to be a regular file.
 */
export const OPEN_FLAGS =
  constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK | constants.O_NOCTTY;

function callSync(step: FileOp): Exclude<OpResult, OpFailure> {
  switch (step.op) {
    case 'lstat':
      return lstatSync(step.path);
    case 'open':
      return openSync(step.path, OPEN_FLAGS);
    case 'fstat':
      return fstatSync(step.fd);
    case 'readlink':
      return readlinkSync(step.path);
    case 'read':
      return readSync(step.fd, step.buffer, step.offset, step.buffer.length - step.offset, null);
    case 'close':
      closeSync(step.fd);
      return undefined;
    case 'readdir':
      return readdirSync(step.path, { withFileTypes: true });
    case 'realpath':
      return realpathSync(step.path);
  }
}

const calls = {
  lstat: promisify(lstat),
  open: promisify(open),
  fstat: promisify(fstat),
  readlink: promisify(readlink),
  read: promisify(read),
  close: promisify(close),
  readdir: promisify(readdir),
  realpath: promisify(realpath),
};

async function callAsync(step: FileOp): Promise<Exclude<OpResult, OpFailure>> {
  switch (step.op) {
    case 'lstat':
      return calls.lstat(step.path);
    case 'open':
      return calls.open(step.path, OPEN_FLAGS);
    case 'fstat':
      return calls.fstat(step.fd);
    case 'readlink':
      return calls.readlink(step.path);
    case 'read': {
      const len = step.buffer.length - step.offset;
      return (await calls.read(step.fd, step.buffer, step.offset, len, null)).bytesRead;
    }
    case 'close':
      await calls.close(step.fd);
      return undefined;
    case 'readdir':
      return calls.readdir(step.path, { withFileTypes: true });
    case 'realpath':
      return calls.realpath(step.path);
  }
}

// Not `instanceof Error`: errors from Node's own modules come from another realm under jest.
const asError = (err: unknown): OpFailure =>
  new OpFailure(
    typeof err === 'object' && err !== null ? (err as { code?: string }).code : undefined,
  );

export type Steps<T> = Generator<FileOp, T, OpResult>;

export function runSync<T>(steps: Steps<T>): T {
  let next = steps.next();
  while (!next.done) {
    let answer: OpResult;
    try {
      answer = callSync(next.value);
    } catch (err) {
      answer = asError(err);
    }
    next = steps.next(answer);
  }
  return next.value;
}

export async function runAsync<T>(steps: Steps<T>): Promise<T> {
  let next = steps.next();
  while (!next.done) {
    let answer: OpResult;
    try {
      answer = await callAsync(next.value);
    } catch (err) {
      answer = asError(err);
    }
    next = steps.next(answer);
  }
  return next.value;
}

export const isError = (value: OpResult): value is OpFailure => value instanceof OpFailure;
