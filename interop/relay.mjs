// An independent Nostr relay for roster's interop tests: @nostr-relay/core
// with its SQLite event repository and its zod validator, behind a `ws`
// server, all with their default settings (the wiring follows the
// @nostr-relay README). Nothing here comes from roster or khatru.
//
//   node relay.mjs <port> [sqlite-file]
//
// Listens on 127.0.0.1:<port> (0 = a free port), prints one line
// `ws://127.0.0.1:<port>` on stdout once it accepts connections, and runs
// until stdin closes or it gets SIGTERM. The SQLite file defaults to an
// in-memory database.
import { createServer } from 'node:http';
import { createOutgoingNoticeMessage } from '@nostr-relay/common';
import { NostrRelay } from '@nostr-relay/core';
import { EventRepositorySqlite } from '@nostr-relay/event-repository-sqlite';
import { Validator } from '@nostr-relay/validator';
import { WebSocketServer } from 'ws';

const [portArg, dbFile] = process.argv.slice(2);
const port = Number(portArg ?? 0);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error('usage: node relay.mjs <port> [sqlite-file]');
  process.exit(2);
}

const repository = new EventRepositorySqlite(dbFile || ':memory:');
await repository.init();
const relay = new NostrRelay(repository);
const validator = new Validator();

// A plain HTTP request (not an upgrade) gets 404: @nostr-relay/core has no
// NIP-11 document of its own, and this harness adds none.
const http = createServer((_req, res) => {
  res.writeHead(404).end();
});
const wss = new WebSocketServer({ server: http });

wss.on('connection', (ws, req) => {
  relay.handleConnection(ws, req.socket.remoteAddress);
  ws.on('message', async data => {
    try {
      const message = await validator.validateIncomingMessage(data);
      await relay.handleMessage(ws, message);
    } catch (error) {
      ws.send(JSON.stringify(createOutgoingNoticeMessage(String(error?.message ?? error))));
    }
  });
  ws.on('close', () => relay.handleDisconnect(ws));
  ws.on('error', err => console.error('relay.mjs: websocket error:', err.message));
});

http.listen(port, '127.0.0.1', () => {
  process.stdout.write(`ws://127.0.0.1:${http.address().port}\n`);
});

async function shutdown() {
  for (const c of wss.clients) c.terminate();
  wss.close();
  http.close();
  await relay.destroy();
  await repository.destroy?.();
  process.exit(0);
}
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);
// The Go test keeps our stdin open; when it goes away, so do we.
process.stdin.on('end', shutdown);
process.stdin.resume();
