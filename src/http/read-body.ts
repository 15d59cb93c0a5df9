import type { IncomingMessage } from 'node:http';

// A refused body is still read (and thrown away), up to DRAIN_BYTES past what its reader keeps and for at most
// DRAIN_MS, so the connection can carry the client's next request. Past either bound the answer says
// `Connection: close`: the unread rest would otherwise be taken for the next request, or leave the connection
// waiting for a body nobody reads. The bound is the same for every reader (a 16 KiB form, a 1 MiB JSON body):
// it is what keeping a connection is worth, not what a route accepts.
const DRAIN_BYTES = 8 * 1024 * 1024;
const DRAIN_MS = 5_000;

/** The most of a body a reader keeping `keepBytes` reads before it gives the connection up. */
export const drainLimit = (keepBytes: number) => keepBytes + DRAIN_BYTES;

export interface BodyRead {
  /** The body, or null when it was longer than the bytes to keep. */
  body: Buffer | null;
  /** Whether the whole body was consumed, so the connection can carry another request. */
  complete: boolean;
  /** The client went away mid-body. */
  aborted: boolean;
}

export const unread: BodyRead = { body: null, complete: false, aborted: false };

/**
 * Reads a request body, keeping at most `keepBytes`. Past that it goes on reading and discarding, up to
 * `drainLimit(keepBytes)` in all and DRAIN_MS, then pauses the request. It never destroys the request stream (breaking
 * out of `for await` does), which would take the socket down before the refusal is written.
 */
export function readBody(req: IncomingMessage, keepBytes: number): Promise<BodyRead> {
  const drainBytes = drainLimit(keepBytes);
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let timer: NodeJS.Timeout | undefined;
    const finish = (read: BodyRead) => {
      clearTimeout(timer);
      req.off('data', onData).off('end', onEnd).off('error', onAbort).off('close', onClose);
      resolve(read);
    };
    const stopDraining = () => {
      req.pause();
      finish(unread);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= keepBytes) chunks.push(chunk);
      else if (timer === undefined) {
        chunks.length = 0;
        timer = setTimeout(stopDraining, DRAIN_MS);
      }
      if (size > drainBytes) stopDraining();
    };
    const onEnd = () =>
      finish({ body: size <= keepBytes ? Buffer.concat(chunks) : null, complete: true, aborted: false });
    const onAbort = () => finish({ body: null, complete: false, aborted: true });
    const onClose = () => {
      if (!req.complete) onAbort();
    };
    req.on('data', onData).once('end', onEnd).once('error', onAbort).once('close', onClose);
  });
}
