// nostr-tools on the other side of roster: every operation the Go interop
// tests need from an independent implementation, one per invocation.
//
//   node tools.mjs <operation> < request.json > answer.json
//
// The request and the answer are JSON. Keys are 64-hex. A failed operation
// prints {"error": "..."} and exits 1; a check that finds problems still
// exits 0 and lists them (the Go test decides what they mean).
//
// Operations:
//   sign      {events:[Draft]}                 -> {events:[Event]}
//   publish   {relays:[url], events:[Draft], auth_sk?} -> {events:[Event], ok:{url:[id]}}
//   fetch     {relays:[url], filters:[Filter], auth_sk?} -> {events:[Event], checks:[Check]}
//   check     {events:[Event]}                 -> {checks:[Check]}
//   nip19     {values:[string]}                -> {decoded:[Decoded]}
//   nip49-encrypt {sk, password, logn}         -> {ncryptsec}
//   nip49-decrypt {ncryptsec, password}        -> {sk}
//   nip44-encrypt {sk, pub, plaintext}         -> {ciphertext}
//   nip44-decrypt {sk, pub, ciphertext}        -> {plaintext}
//
// A Draft is {sk, kind, created_at, tags, content} or, for the shapes ngit
// writes, {sk, created_at, ngit_announcement:{...}} / {sk, created_at,
// ngit_state:{...}} (see ngitAnnouncementTags and ngitStateTags).
import './webcrypto.mjs'; // before nostr-tools
import { readFileSync } from 'node:fs';
import WebSocket from 'ws';
import { finalizeEvent, verifyEvent, getPublicKey } from 'nostr-tools/pure';
import { Relay, useWebSocketImplementation } from 'nostr-tools/relay';
import * as nip19 from 'nostr-tools/nip19';
import * as nip44 from 'nostr-tools/nip44';
import * as nip49 from 'nostr-tools/nip49';
import { hexToBytes, bytesToHex } from 'nostr-tools/utils';

useWebSocketImplementation(WebSocket);

const HEX64 = /^[0-9a-f]{64}$/;
const DECIMAL = /^(0|[1-9][0-9]*)$/;

// ngitAnnouncementTags is kind 30617 in ngit-cli v2.6.3's tag order: d,
// r <euc> euc, name, description, clone, web, relays, maintainers (each one
// multi-value tag, emitted even when empty; the author always listed), alt,
// one t per hashtag, then tags ngit does not know (M/m/o included) verbatim.
function ngitAnnouncementTags(author, a) {
  const maintainers = a.maintainers ?? [author];
  if (!maintainers.includes(author)) maintainers.unshift(author);
  const tags = [['d', a.identifier]];
  if (a.euc) tags.push(['r', a.euc, 'euc']);
  tags.push(['name', a.name ?? a.identifier]);
  tags.push(['description', a.description ?? '']);
  tags.push(['clone', ...(a.clone ?? [])]);
  tags.push(['web', ...(a.web ?? [])]);
  tags.push(['relays', ...(a.relays ?? [])]);
  tags.push(['maintainers', ...maintainers]);
  tags.push(['alt', `git repository: ${a.name ?? a.identifier}`]);
  for (const t of a.hashtags ?? []) tags.push(['t', t]);
  for (const t of a.unknown ?? []) tags.push(t);
  return tags;
}

// ngitStateTags is kind 30618 as ngit writes it: d, one [ref, value] per ref,
// HEAD as `ref: refs/heads/<branch>`, annotated tags also peeled (^{}).
function ngitStateTags(s) {
  const tags = [['d', s.identifier]];
  for (const [ref, oid] of Object.entries(s.refs ?? {})) tags.push([ref, oid]);
  if (s.head) tags.push(['HEAD', `ref: refs/heads/${s.head}`]);
  return tags;
}

function sign(draft) {
  const sk = hexToBytes(draft.sk);
  const author = getPublicKey(sk);
  let kind = draft.kind;
  let tags = draft.tags ?? [];
  if (draft.ngit_announcement) {
    kind = 30617;
    tags = ngitAnnouncementTags(author, draft.ngit_announcement);
  } else if (draft.ngit_state) {
    kind = 30618;
    tags = ngitStateTags(draft.ngit_state);
  }
  const evt = finalizeEvent({ kind, created_at: draft.created_at, tags, content: draft.content ?? '' }, sk);
  if (!verifyEvent(evt)) throw new Error(`nostr-tools cannot verify its own event ${evt.id}`);
  return evt;
}

// connect opens url; with authSk it first answers the relay's NIP-42
// challenge as that key (a relay that requires auth sends it on connect).
async function connect(url, authSk) {
  const relay = await Relay.connect(url);
  relay.publishTimeout = 10000;
  if (authSk) {
    const deadline = Date.now() + 5000;
    while (!relay.challenge) {
      if (Date.now() > deadline) throw new Error(`${url} sent no NIP-42 challenge within 5 s`);
      await new Promise(r => setTimeout(r, 10));
    }
    await relay.auth(async tmpl => finalizeEvent(tmpl, hexToBytes(authSk)));
  }
  return relay;
}

async function publish({ relays, events, auth_sk }) {
  const signed = events.map(sign);
  const ok = {};
  for (const url of relays) {
    const relay = await connect(url, auth_sk);
    ok[url] = [];
    try {
      for (const evt of signed) {
        // Resolves on ["OK", id, true, ...]; rejects with the relay's reason otherwise.
        await relay.publish(evt);
        ok[url].push(evt.id);
      }
    } finally {
      relay.close();
    }
  }
  return { events: signed, ok };
}

// fetchAll asks every relay for filters, waits for EOSE, and keeps each
// event once (by id).
async function fetchAll(relays, filters, authSk) {
  const byId = new Map();
  for (const url of relays) {
    const relay = await connect(url, authSk);
    try {
      await new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`${url}: no EOSE within 10 s`)), 10000);
        relay.subscribe(filters, {
          onevent(evt) {
            if (!byId.has(evt.id)) byId.set(evt.id, { evt, relays: [] });
            byId.get(evt.id).relays.push(url);
          },
          oneose() {
            clearTimeout(timer);
            resolve();
          },
          onclose(reason) {
            clearTimeout(timer);
            reject(new Error(`${url} closed the subscription: ${reason}`));
          },
        });
      });
    } finally {
      relay.close();
    }
  }
  return [...byId.values()];
}

// roleTagProblems checks [letter, 64-hex, decimal bounds..., optional final
// "defer" on a non-self record] (maintainers.md "Role records").
function roleTagProblems(tag, author) {
  const out = [];
  const [letter, subject, ...bounds] = tag;
  if (!HEX64.test(subject ?? '')) out.push(`${letter} tag subject ${JSON.stringify(subject)} is not 64-hex`);
  bounds.forEach((b, i) => {
    if (DECIMAL.test(b)) return;
    if (b === 'defer' && i === bounds.length - 1 && i % 2 === 1) {
      if (subject === author) out.push(`${letter} tag defers the author's own role`);
      return;
    }
    out.push(`${letter} tag bound ${JSON.stringify(b)} at position ${i + 2} is neither a Unix time nor a final defer`);
  });
  for (let i = 1; i < bounds.length; i++) {
    if (DECIMAL.test(bounds[i]) && DECIMAL.test(bounds[i - 1]) && Number(bounds[i]) < Number(bounds[i - 1])) {
      out.push(`${letter} tag bounds go backwards: ${bounds.join(',')}`);
    }
  }
  return out;
}

function exactlyOne(evt, name) {
  return evt.tags.filter(t => t[0] === name).length === 1;
}

// check is every wire rule the interop suite holds roster's events to.
function check(evt) {
  const problems = [];
  if (!verifyEvent(evt)) problems.push('nostr-tools verifyEvent rejects the id or signature');
  const tags = evt.tags;
  if (!Array.isArray(tags) || tags.some(t => !Array.isArray(t) || t.length === 0 || t.some(v => typeof v !== 'string'))) {
    problems.push('a tag is not a non-empty array of strings');
    return { id: evt.id, kind: evt.kind, pubkey: evt.pubkey, problems };
  }
  const d = tags.filter(t => t[0] === 'd');
  switch (evt.kind) {
    case 30617:
    case 30618:
    case 30621:
      if (d.length !== 1 || d[0].length < 2 || d[0][1] === '') problems.push(`wants exactly one non-empty d tag, has ${JSON.stringify(d)}`);
      break;
  }
  if (evt.kind === 30617) {
    for (const t of tags) {
      if (['M', 'm', 'o'].includes(t[0])) problems.push(...roleTagProblems(t, evt.pubkey));
      if (t[0] === 'maintainers') {
        for (const v of t.slice(1)) if (!HEX64.test(v)) problems.push(`maintainers holds ${JSON.stringify(v)}, not 64-hex`);
      }
    }
    if (tags.filter(t => t[0] === 'maintainers').length > 1) problems.push('more than one maintainers tag');
  }
  if (evt.kind >= 9050 && evt.kind <= 9054) {
    // NIP-SW commands: exactly one p (the owner), one action, and for grant
    // and revoke one actor; nothing else.
    const allowed = evt.kind === 9051 || evt.kind === 9052 ? ['p', 'action', 'actor'] : ['p', 'action'];
    for (const name of allowed) if (!exactlyOne(evt, name)) problems.push(`wants exactly one ${name} tag`);
    for (const t of tags) {
      if (!allowed.includes(t[0])) problems.push(`unexpected tag ${t[0]}`);
      if (t.length !== 2) problems.push(`${t[0]} tag has ${t.length - 1} values, want 1`);
    }
    const p = tags.find(t => t[0] === 'p');
    if (p && !HEX64.test(p[1])) problems.push('p tag is not 64-hex');
    const actor = tags.find(t => t[0] === 'actor');
    if (actor && (!HEX64.test(actor[1]) || (p && actor[1] === p[1]))) problems.push('actor tag is not a 64-hex key other than the owner');
  }
  if (evt.kind === 47010) {
    // NIP-PC change: exactly an a tag (30621:<owner>:<d>) and a canonical expected-revision.
    if (tags.length !== 2 || !exactlyOne(evt, 'a') || !exactlyOne(evt, 'expected-revision')) problems.push('wants exactly an a and an expected-revision tag');
    const a = tags.find(t => t[0] === 'a');
    if (a && !/^30621:[0-9a-f]{64}:.+$/.test(a[1] ?? '')) problems.push(`a tag ${JSON.stringify(a[1])} is not 30621:<64-hex>:<d>`);
    const rev = tags.find(t => t[0] === 'expected-revision');
    if (rev && !/^[1-9][0-9]*$/.test(rev[1] ?? '')) problems.push(`expected-revision ${JSON.stringify(rev[1])} is not canonical`);
  }
  if (evt.kind === 9021 || evt.kind === 9022 || evt.kind === 9000 || evt.kind === 9001) {
    // NIP-29 join/leave requests and membership changes: one h (the group
    // id); a join has at most one code; put/remove-user one 64-hex p.
    if (!exactlyOne(evt, 'h') || tags.find(t => t[0] === 'h')[1] === '') problems.push('wants exactly one non-empty h tag');
    if (evt.kind === 9021 && tags.filter(t => t[0] === 'code').length > 1) problems.push('more than one code tag');
    if (evt.kind === 9022 && tags.some(t => t[0] === 'code')) problems.push('a leave request has a code tag');
    if ((evt.kind === 9000 || evt.kind === 9001) && !tags.some(t => t[0] === 'p' && HEX64.test(t[1] ?? ''))) problems.push('wants a 64-hex p tag');
  }
  if (evt.kind === 10009) {
    // NIP-51 simple groups: group tags are [group, id, relay URL, name?].
    for (const t of tags.filter(t => t[0] === 'group')) {
      if (t.length < 3 || t[1] === '' || !/^wss?:\/\/.+/.test(t[2])) problems.push(`group tag ${JSON.stringify(t)} is not [group, id, ws(s) URL, name?]`);
    }
  }
  return { id: evt.id, kind: evt.kind, pubkey: evt.pubkey, problems };
}

async function fetchAndCheck({ relays, filters, auth_sk }) {
  const found = await fetchAll(relays, filters, auth_sk);
  return {
    events: found.map(f => f.evt),
    checks: found.map(f => ({ ...check(f.evt), relays: f.relays })),
  };
}

// decode is nip19 for bech32 strings and, for nostr:// URLs in ngit's
// grammar, nip19 for the naddr or npub segment.
function decode(value) {
  if (value.startsWith('nostr://')) {
    let rest = value.slice('nostr://'.length).split('?')[0];
    let segs = rest.split('/').filter(s => s !== '');
    if (/^(ssh|https|http|git)$/.test(segs[0]) || /@ssh$/.test(segs[0] ?? '')) segs = segs.slice(1);
    if (segs[0]?.startsWith('naddr1')) {
      return { value, url: true, ...nip19.decode(segs[0]) };
    }
    const owner = nip19.decode(segs[0]);
    if (owner.type !== 'npub') throw new Error(`${value}: first segment is ${owner.type}, not npub or naddr`);
    const identifier = decodeURIComponent(segs[segs.length - 1]);
    const relays = segs.slice(1, -1).map(r => {
      const u = decodeURIComponent(r);
      return /^wss?:\/\//.test(u) ? u : `wss://${u}`;
    });
    return { value, url: true, type: 'nostr-url', data: { pubkey: owner.data, identifier, relays } };
  }
  return { value, ...nip19.decode(value) };
}

function decodeAll({ values }) {
  return {
    decoded: values.map(v => {
      try {
        const d = decode(v);
        if (d.data instanceof Uint8Array) d.data = bytesToHex(d.data);
        return d;
      } catch (err) {
        return { value: v, error: String(err?.message ?? err) };
      }
    }),
  };
}

const operations = {
  sign: async ({ events }) => ({ events: events.map(sign) }),
  publish,
  fetch: fetchAndCheck,
  // check is fetch's verdict for events the caller already has (commands a
  // relay authority consumed instead of storing).
  check: async ({ events }) => ({ checks: events.map(check) }),
  nip19: async req => decodeAll(req),
  'nip49-encrypt': async ({ sk, password, logn, ksb }) => ({ ncryptsec: nip49.encrypt(hexToBytes(sk), password, logn ?? 16, ksb ?? 0x02) }),
  'nip49-decrypt': async ({ ncryptsec, password }) => ({ sk: bytesToHex(nip49.decrypt(ncryptsec, password)) }),
  'nip44-encrypt': async ({ sk, pub, plaintext }) => ({ ciphertext: nip44.encrypt(plaintext, nip44.getConversationKey(hexToBytes(sk), pub)) }),
  'nip44-decrypt': async ({ sk, pub, ciphertext }) => ({ plaintext: nip44.decrypt(ciphertext, nip44.getConversationKey(hexToBytes(sk), pub)) }),
};

const op = operations[process.argv[2]];
if (!op) {
  console.error(`usage: node tools.mjs <${Object.keys(operations).join('|')}> < request.json`);
  process.exit(2);
}
try {
  const answer = await op(JSON.parse(readFileSync(0, 'utf8') || '{}'));
  process.stdout.write(JSON.stringify(answer) + '\n');
  process.exit(0);
} catch (err) {
  process.stdout.write(JSON.stringify({ error: String(err?.stack ?? err) }) + '\n');
  process.exit(1);
}
