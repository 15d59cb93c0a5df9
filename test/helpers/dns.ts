import { createSocket, type RemoteInfo } from 'node:dgram';
import { once } from 'node:events';
import { createServer, type Server, type Socket } from 'node:net';

// A tiny authoritative DNS server on 127.0.0.1 for tests: real DNS wire format over UDP (and TCP, for answers
// that do not fit a datagram), answering TXT queries from a map the test edits. Unknown names get NXDOMAIN;
// known names asked for another type get an empty NOERROR (NODATA), as a real server would.

const TYPE_TXT = 16;
const TYPE_OPT = 41;
const UDP_LIMIT_WITH_EDNS = 1232;

export interface TestDnsServer {
  /** "127.0.0.1:<port>", ready for config.dns.servers. */
  address: string;
  port: number;
  /** Publishes (replaces) the TXT records of a name. */
  setTxt(name: string, values: string[]): void;
  /** Removes every record of a name (it then answers NXDOMAIN). */
  remove(name: string): void;
  /** Makes the server answer SERVFAIL for a name (a broken upstream), until removed. */
  failName(name: string): void;
  clear(): void;
  /** Names asked so far, lowercase, in order. */
  queries: string[];
  close(): Promise<void>;
}

interface Question {
  id: number;
  flags: number;
  name: string;
  type: number;
  questionBytes: Buffer;
  ednsSize: number | null;
}

function parseQuery(msg: Buffer): Question | null {
  if (msg.length < 12 || msg.readUInt16BE(4) !== 1) return null;
  const labels: string[] = [];
  let offset = 12;
  while (offset < msg.length && msg[offset] !== 0) {
    const len = msg[offset]!;
    if (len > 63) return null;
    labels.push(msg.subarray(offset + 1, offset + 1 + len).toString('latin1'));
    offset += 1 + len;
  }
  offset += 1;
  if (offset + 4 > msg.length) return null;
  const type = msg.readUInt16BE(offset);
  const questionBytes = msg.subarray(12, offset + 4);
  offset += 4;
  // The additional section of a query normally holds only the EDNS OPT record, whose class is the UDP size.
  let ednsSize: number | null = null;
  if (
    msg.readUInt16BE(10) > 0 &&
    msg[offset] === 0 &&
    offset + 5 <= msg.length &&
    msg.readUInt16BE(offset + 1) === TYPE_OPT
  ) {
    ednsSize = msg.readUInt16BE(offset + 3);
  }
  return {
    id: msg.readUInt16BE(0),
    flags: msg.readUInt16BE(2),
    name: labels.join('.').toLowerCase(),
    type,
    questionBytes,
    ednsSize,
  };
}

function encodeTxt(value: string): Buffer {
  const bytes = Buffer.from(value, 'utf8');
  const parts: Buffer[] = [];
  // A TXT record is a list of strings of at most 255 bytes each; long values (DKIM keys) are split.
  for (let i = 0; i < bytes.length || i === 0; i += 255) {
    const chunk = bytes.subarray(i, i + 255);
    parts.push(Buffer.from([chunk.length]), chunk);
  }
  return Buffer.concat(parts);
}

const SERVFAIL = Symbol('servfail');
type Entry = string[] | typeof SERVFAIL;

function buildResponse(q: Question, records: Map<string, Entry>, truncateAt: number | null): Buffer {
  const entry = records.get(q.name);
  const values = entry === SERVFAIL ? undefined : entry;
  const answers = values && q.type === TYPE_TXT ? values : [];
  const rcode = entry === SERVFAIL ? 2 : values ? 0 : 3;
  const answerBytes = answers.map((v) => {
    const rdata = encodeTxt(v);
    const rr = Buffer.alloc(12);
    rr.writeUInt16BE(0xc00c, 0); // pointer to the question's name
    rr.writeUInt16BE(TYPE_TXT, 2);
    rr.writeUInt16BE(1, 4); // IN
    rr.writeUInt32BE(60, 6);
    rr.writeUInt16BE(rdata.length, 10);
    return Buffer.concat([rr, rdata]);
  });
  const opt =
    q.ednsSize !== null
      ? Buffer.from([0, 0, TYPE_OPT, UDP_LIMIT_WITH_EDNS >> 8, UDP_LIMIT_WITH_EDNS & 0xff, 0, 0, 0, 0, 0, 0])
      : Buffer.alloc(0);
  const header = Buffer.alloc(12);
  header.writeUInt16BE(q.id, 0);
  // QR=1, opcode and RD copied, AA=1, RA=1, rcode.
  header.writeUInt16BE(0x8000 | (q.flags & 0x7900) | 0x0400 | 0x0080 | rcode, 2);
  header.writeUInt16BE(1, 4);
  header.writeUInt16BE(answerBytes.length, 6);
  header.writeUInt16BE(0, 8);
  header.writeUInt16BE(opt.length ? 1 : 0, 10);
  const full = Buffer.concat([header, q.questionBytes, ...answerBytes, opt]);
  if (truncateAt === null || full.length <= truncateAt) return full;
  // Too big for this datagram: send TC with no answers; the resolver retries over TCP.
  header.writeUInt16BE(header.readUInt16BE(2) | 0x0200, 2);
  header.writeUInt16BE(0, 6);
  header.writeUInt16BE(0, 10);
  return Buffer.concat([header, q.questionBytes]);
}

/**
 * The server on UDP and TCP of one port. The port UDP was given may be taken for TCP (by another test's listener or
 * connection), so another port is tried then.
 */
export async function startTestDnsServer(): Promise<TestDnsServer> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnPort();
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE' || attempt === 10) throw err;
    }
  }
}

async function startOnPort(): Promise<TestDnsServer> {
  const records = new Map<string, Entry>();
  const queries: string[] = [];
  const udp = createSocket('udp4');
  udp.on('message', (msg: Buffer, peer: RemoteInfo) => {
    const q = parseQuery(msg);
    if (!q) return;
    queries.push(q.name);
    udp.send(buildResponse(q, records, Math.max(512, q.ednsSize ?? 0)), peer.port, peer.address);
  });
  udp.bind(0, '127.0.0.1');
  await once(udp, 'listening');
  const port = udp.address().port;

  const sockets = new Set<Socket>();
  const tcp: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    let buffered = Buffer.alloc(0);
    socket.on('data', (data) => {
      buffered = Buffer.concat([buffered, data]);
      while (buffered.length >= 2 && buffered.length >= 2 + buffered.readUInt16BE(0)) {
        const msg = buffered.subarray(2, 2 + buffered.readUInt16BE(0));
        buffered = buffered.subarray(2 + msg.length);
        const q = parseQuery(msg);
        if (!q) continue;
        queries.push(q.name);
        const res = buildResponse(q, records, null);
        const len = Buffer.alloc(2);
        len.writeUInt16BE(res.length);
        socket.write(Buffer.concat([len, res]));
      }
    });
  });
  tcp.listen(port, '127.0.0.1');
  await once(tcp, 'listening').catch((err: Error) => {
    udp.close();
    throw err;
  });

  const key = (name: string) => name.toLowerCase().replace(/\.$/, '');
  return {
    address: `127.0.0.1:${port}`,
    port,
    setTxt: (name, values) => void records.set(key(name), values),
    remove: (name) => void records.delete(key(name)),
    failName: (name) => void records.set(key(name), SERVFAIL),
    clear: () => records.clear(),
    queries,
    async close() {
      for (const s of sockets) s.destroy();
      await Promise.all([
        new Promise<void>((r) => udp.close(() => r())),
        new Promise<void>((r) => tcp.close(() => r())),
      ]);
    },
  };
}
