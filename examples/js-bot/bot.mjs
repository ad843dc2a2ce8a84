#!/usr/bin/env node
// A minimal random Cosmoport bot in Node.js, with @msgpack/msgpack and nothing else.
//
// Written from PROTOCOL.md alone. It connects, says hello, takes its seat and plays a random
// legal action whenever its seat must decide, until the game is over or its table closes. If the
// connection drops, it connects again and takes its seat back with the latest token it was given.
//
//     node bot.mjs [HOST:PORT] [--table ID] [--name NAME]
//
// The server is HOST:PORT, else $COSMOPORT_SERVER, else 127.0.0.1:7777. With
// $COSMOPORT_SEAT_TOKEN set (a tournament or `add_bot` started it) it takes that seat with
// `resume`; otherwise it joins the waiting table --table ID and plays once someone starts it.

import net from "node:net";
import { encode, decode } from "@msgpack/msgpack";

const VERSIONS = [2, 1]; // the protocol versions this bot speaks, newest first (section 3)
const MAX_SERVER_FRAME = 1 << 20; // a client must accept frames up to 1 MiB (section 1)
const RETRIES = [100, 300, 1000, 2000, 4000]; // milliseconds before each attempt to connect again

function log(text) {
  process.stderr.write(`js-bot: ${text}\n`);
}

function parseArgs(argv) {
  const args = { server: process.env.COSMOPORT_SERVER, table: null, name: "js-bot" };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === "--table") args.table = Number.parseInt(argv[++i], 10);
    else if (argv[i] === "--name") args.name = argv[++i];
    else args.server = argv[i];
  }
  return args;
}

const args = parseArgs(process.argv.slice(2));
let token = process.env.COSMOPORT_SEAT_TOKEN; // the latest seat token: it outlives a connection
if (!token && !Number.isSafeInteger(args.table)) {
  log("give --table ID, or set COSMOPORT_SEAT_TOKEN");
  process.exit(2);
}
const address = args.server || "127.0.0.1:7777";
const colon = address.lastIndexOf(":");
let socket = null;
let retries = 0;

// Ids are small integers, far below 2^53 - 1: @msgpack/msgpack sends a safe integer as a msgpack
// integer, but 2^53 and beyond as a float, which the server refuses.
let nextId = 0;

function send(msg, withId = true) {
  let id = null;
  if (withId) {
    id = ++nextId;
    msg = { ...msg, id };
  }
  const body = encode(msg);
  const header = Buffer.alloc(4);
  header.writeUInt32BE(body.length, 0);
  socket.write(Buffer.concat([header, Buffer.from(body.buffer, body.byteOffset, body.length)]));
  return id;
}

let seatRequest = null; // the id of our resume or join: an error to it means no seat
let last = null; // the latest snapshot or update
let sent = null; // the action last sent
let refused = []; // actions refused as illegal at last.version
let finished = false;
let buffer = Buffer.alloc(0);

function sameAction(a, b) {
  return a.length === b.length && a.every((part, i) => part === b[i]);
}

function act() {
  const choices = last.legal
    .map((choice) => choice.action)
    .filter((action) => !refused.some((r) => sameAction(r, action)));
  if (choices.length === 0) return;
  sent = choices[Math.floor(Math.random() * choices.length)];
  send({ type: "act", version: last.version, action: sent });
}

function finish(status, why) {
  if (finished) return;
  finished = true;
  log(why);
  socket.end();
  process.exitCode = status;
}

function dropped(why) {
  if (finished) return;
  if (!token || retries >= RETRIES.length) {
    finish(1, `${why}: giving up`); // never seated, or tried long enough
    return;
  }
  log(`${why}: connecting again`);
  socket.removeAllListeners();
  socket.destroy();
  setTimeout(connect, RETRIES[retries++]);
}

function handle(msg) {
  switch (msg.type) {
    case "ping": // answer at once, echoing the id if there is one
      send(msg.id === undefined ? { type: "pong" } : { type: "pong", id: msg.id }, false);
      break;
    case "joined":
    case "resumed":
      token = msg.token; // kept before the pong that retires the old one
      log(`seated at table ${msg.table.id}, place ${msg.slot}`);
      break;
    case "snapshot":
    case "update":
      last = msg;
      refused = [];
      if (msg.legal && msg.legal.length > 0) act(); // not empty: this seat must decide now
      break;
    case "game_over":
      finish(0, `game over: scores ${JSON.stringify(msg.scores)}`);
      break;
    case "left":
      if (msg.reason === "closed") finish(0, "the table was closed");
      break;
    case "reject":
    case "error":
      log(`${msg.type} ${msg.code}: ${msg.message}`);
      if (msg.type === "reject" || (msg.id !== undefined && msg.id === seatRequest)) {
        finish(1, "no seat to play");
      } else if (msg.code === "action/illegal" && last !== null) {
        refused.push(sent); // never that one again at this version
        act(); // go on with another action of the same list
      }
      // action/stale: someone else moved first; the update that says so is on its way
      break;
    default: // welcome, started, table_update, chat, seat_status...: nothing to do
  }
}

function receive(chunk) {
  buffer = Buffer.concat([buffer, chunk]);
  // Frames may arrive split across reads, or several in one: take every whole frame there is.
  while (!finished && buffer.length >= 4) {
    const length = buffer.readUInt32BE(0);
    if (length > MAX_SERVER_FRAME) {
      finish(1, `a frame of ${length} bytes from the server`);
      return;
    }
    if (buffer.length < 4 + length) break;
    const msg = decode(buffer.subarray(4, 4 + length));
    buffer = buffer.subarray(4 + length);
    if (msg !== null && typeof msg === "object" && !Array.isArray(msg)) handle(msg);
  }
}

function connect() {
  buffer = Buffer.alloc(0);
  socket = net.connect({
    host: address.slice(0, colon) || "127.0.0.1",
    port: Number.parseInt(address.slice(colon + 1), 10),
  });
  socket.on("data", receive);
  socket.on("connect", () => {
    const hello = { type: "hello", version: VERSIONS[0], versions: VERSIONS, name: args.name };
    send({ ...hello, client: "js-bot" });
    seatRequest = token
      ? send({ type: "resume", token })
      : send({ type: "join", table: args.table });
  });
  socket.on("error", (err) => dropped(`connection failed: ${err.message}`));
  socket.on("close", () => dropped("the server closed the connection"));
}

connect();
