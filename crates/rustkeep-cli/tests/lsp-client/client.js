// Drives `rustkeep lsp` with vscode-languageserver-protocol, the client library VS Code's own
// language client is built on, and checks every answer with node's `assert`.
//
//   node client.js RUSTKEEP_BINARY WORKSPACE ENCODING CACHE_DIR
//
// WORKSPACE holds the example mods, prepared by crates/rustkeep-cli/tests/lsp_node_client.rs: an
// unknown event (`creature_dyed`) in rat_catcher/quests.toml and an unknown item whose name has an
// umlaut and an emoji (`core:rät_🐀tail`) in rat_catcher/loot.toml. ENCODING is the only position
// encoding the client offers besides UTF-16 ("utf-16" or "utf-8"); every position sent and
// checked is computed in it. Exits non-zero on the first failed check.
"use strict";

const assert = require("node:assert/strict");
const cp = require("node:child_process");
const fs = require("node:fs");
const path = require("node:path");
const url = require("node:url");
const rpc = require("vscode-languageserver-protocol/node");

const [bin, ws, encoding, cache] = process.argv.slice(2);
const mod = path.join(ws, "rat_catcher");
const uriOf = (p) => url.pathToFileURL(p).href;
const read = (p) => fs.readFileSync(p, "utf8");

// ----- positions in the negotiated encoding --------------------------------------------------

/** The column of JS string index `i` within `line`, in the negotiated encoding. */
function column(line, i) {
  return encoding === "utf-8" ? Buffer.byteLength(line.slice(0, i), "utf8") : i;
}
/** The JS string index of a column of the negotiated encoding. */
function index(line, col) {
  if (encoding !== "utf-8") return col;
  let bytes = 0;
  let i = 0;
  while (i < line.length && bytes < col) {
    const cpt = line.codePointAt(i);
    bytes += Buffer.byteLength(String.fromCodePoint(cpt), "utf8");
    i += cpt > 0xffff ? 2 : 1;
  }
  return i;
}
/** Position of the first `needle` in `text`, `skip` characters into it. */
function pos(text, needle, skip = 0) {
  const at = text.indexOf(needle);
  assert.ok(at >= 0, `${needle} in the fixture`);
  const lines = text.slice(0, at + skip).split("\n");
  const lineText = text.split("\n")[lines.length - 1];
  return { line: lines.length - 1, character: column(lineText, lines[lines.length - 1].length) };
}
/** Applies LSP text edits (in the negotiated encoding) to `text`. */
function apply(text, edits) {
  const lines = text.split("\n");
  const offset = (p) => lines.slice(0, p.line).reduce((n, l) => n + l.length + 1, 0) + index(lines[p.line], p.character);
  const sorted = [...edits].sort((a, b) => offset(b.range.start) - offset(a.range.start));
  for (const e of sorted) {
    text = text.slice(0, offset(e.range.start)) + e.newText + text.slice(offset(e.range.end));
  }
  return text;
}

// ----- the connection ------------------------------------------------------------------------

const child = cp.spawn(bin, ["lsp"], { env: { ...process.env, XDG_CACHE_HOME: cache }, stdio: ["pipe", "pipe", "inherit"] });
const conn = rpc.createProtocolConnection(new rpc.StreamMessageReader(child.stdout), new rpc.StreamMessageWriter(child.stdin));
const diagnostics = new Map();
const waiters = [];
conn.onNotification(rpc.PublishDiagnosticsNotification.type, (p) => {
  diagnostics.set(p.uri, p.diagnostics);
  for (const w of [...waiters]) w();
});
conn.onRequest(rpc.RegistrationRequest.type, () => null);
conn.listen();

/** Resolves once `pred()` holds after some publishDiagnostics (fails after a minute). */
function until(what, pred) {
  return new Promise((resolve, reject) => {
    if (pred()) return resolve();
    const timer = setTimeout(() => reject(new Error(`no ${what}; got ${JSON.stringify([...diagnostics])}`)), 60000);
    const w = () => {
      if (pred()) {
        clearTimeout(timer);
        waiters.splice(waiters.indexOf(w), 1);
        resolve();
      }
    };
    waiters.push(w);
  });
}

const summary = { encoding };

async function main() {
  const offered = encoding === "utf-8" ? ["utf-8", "utf-16"] : ["utf-16"];
  const init = await conn.sendRequest(rpc.InitializeRequest.type, {
    processId: process.pid,
    rootUri: uriOf(ws),
    workspaceFolders: [{ uri: uriOf(ws), name: "examples" }],
    capabilities: {
      general: { positionEncodings: offered },
      workspace: { didChangeWatchedFiles: { dynamicRegistration: true }, symbol: {} },
      textDocument: { publishDiagnostics: { relatedInformation: true }, inlayHint: {}, rename: { prepareSupport: true } },
    },
  });
  assert.equal(init.capabilities.positionEncoding, encoding);
  conn.sendNotification(rpc.InitializedNotification.type, {});

  const quests = path.join(mod, "quests.toml");
  const loot = path.join(mod, "loot.toml");
  const questsText = read(quests);
  const lootText = read(loot);
  for (const [p, text] of [[quests, questsText], [loot, lootText]]) {
    conn.sendNotification(rpc.DidOpenTextDocumentNotification.type, { textDocument: { uri: uriOf(p), languageId: "toml", version: 1, text } });
  }

  // Diagnostics: the unknown event, and the unknown item on a line with non-ASCII text, whose
  // end column is right only in the negotiated encoding.
  const codes = (p) => (diagnostics.get(uriOf(p)) || []).map((d) => d.code);
  await until("diagnostics", () => codes(quests).includes("unknown-event") && codes(loot).length > 0);
  const event = diagnostics.get(uriOf(quests)).find((d) => d.code === "unknown-event");
  assert.deepEqual(event.range.start, pos(questsText, '"creature_dyed"'));
  assert.deepEqual(event.range.end, pos(questsText, '"creature_dyed"', '"creature_dyed"'.length));
  assert.equal(event.source, "rustkeep");
  const rat = diagnostics.get(uriOf(loot)).find((d) => d.range.start.line === pos(lootText, "rät").line);
  assert.ok(rat, `a diagnostic on the line of core:rät_🐀tail: ${JSON.stringify(diagnostics.get(uriOf(loot)))}`);
  assert.deepEqual(rat.range.start, pos(lootText, '"core:rät_🐀tail"'));
  assert.deepEqual(rat.range.end, pos(lootText, '"core:rät_🐀tail"', '"core:rät_🐀tail"'.length));
  summary.diagnostics = { unknown_event: event.range, non_ascii: { code: rat.code, range: rat.range } };

  // Hover on an event: its documentation.
  const hoverText = (h) => (typeof h.contents === "string" ? h.contents : h.contents.value || JSON.stringify(h.contents));
  const onDied = pos(questsText, 'on = "creature_died"', 'on = "'.length + 3);
  const h1 = await conn.sendRequest(rpc.HoverRequest.type, { textDocument: { uri: uriOf(quests) }, position: onDied });
  assert.match(hoverText(h1), /creature_died/);
  assert.match(hoverText(h1), /target/);

  // Hover on a loot table: its exact chances (6 + 2 + 2 + 8 = 18; the cheese wedge drops 2/18).
  const creatures = path.join(mod, "creatures.toml");
  const creaturesText = read(creatures);
  const atTable = pos(creaturesText, "rat_catcher:sewer_rat_loot", 14);
  const h2 = await conn.sendRequest(rpc.HoverRequest.type, { textDocument: { uri: uriOf(creatures) }, position: atTable });
  const tableHover = hoverText(h2);
  assert.match(tableHover, /rat_catcher:cheese_wedge/);
  assert.match(tableHover, /11\.11 %/, tableHover);
  summary.loot_hover = tableHover.split("\n").filter((l) => l.includes("%"));

  // Inlay hints: each weighted entry's share of its table.
  const lines = lootText.split("\n");
  const hints = await conn.sendRequest(rpc.InlayHintRequest.type, {
    textDocument: { uri: uriOf(loot) },
    range: { start: { line: 0, character: 0 }, end: { line: lines.length, character: 0 } },
  });
  const labelOf = (h) => (typeof h.label === "string" ? h.label : h.label.map((p) => p.value).join(""));
  const first = hints.filter((h) => h.position.line >= 6 && h.position.line <= 9).map(labelOf);
  assert.deepEqual(first.map((l) => l.trim()), ["33.33 %", "11.11 %", "11.11 %", "44.44 %"]);
  // Each hint sits right after its entry's closing brace. (The entry with the malformed ID is
  // not lowered, so it has no weight and no hint: its table's shares are of the rest.)
  for (const h of hints.filter((h) => h.position.line >= 6 && h.position.line <= 9)) {
    const l = lines[h.position.line];
    assert.equal(h.position.character, column(l, l.indexOf("}") + 1), l);
  }
  summary.inlay_hints = hints.length;

  // Rename an ID: one WorkspaceEdit touching exactly the files that name it; applying it leaves
  // no trace of the old name but the `[renamed]` line that keeps it working.
  const items = path.join(mod, "items.toml");
  const itemsText = read(items);
  const at = pos(itemsText, 'id = "rat_catcher:cheese_wedge"', 'id = "rat_catcher:'.length + 2);
  const prep = await conn.sendRequest(rpc.PrepareRenameRequest.type, { textDocument: { uri: uriOf(items) }, position: at });
  assert.ok(prep, "the ID can be renamed");
  const edit = await conn.sendRequest(rpc.RenameRequest.type, { textDocument: { uri: uriOf(items) }, position: at, newName: "rat_catcher:cheddar_wedge" });
  const changes = {};
  for (const [u, es] of Object.entries(edit.changes || {})) changes[u] = es;
  for (const dc of edit.documentChanges || []) changes[dc.textDocument.uri] = dc.edits;
  const naming = fs
    .readdirSync(ws, { recursive: true })
    .map((f) => path.join(ws, f))
    .filter((f) => f.endsWith(".toml") && fs.statSync(f).isFile())
    .filter((f) => {
      // Open buffers count, not their disk contents (they are the same here).
      return read(f).includes("rat_catcher:cheese_wedge");
    })
    .map(uriOf)
    .sort();
  // The mod has a `version` (it is released): the rename also keeps the old ID working for the
  // mods and saves that hold it, with a `[renamed]` line in its mod.toml.
  const manifest = uriOf(path.join(mod, "mod.toml"));
  assert.deepEqual(Object.keys(changes).sort(), [...naming, manifest].sort());
  assert.ok(naming.length >= 3, `the cheese wedge is named in several files: ${naming}`);
  for (const [u, es] of Object.entries(changes)) {
    const after = apply(read(url.fileURLToPath(u)), es);
    if (u === manifest) {
      assert.ok(after.includes('[renamed]\n"rat_catcher:cheese_wedge" = "rat_catcher:cheddar_wedge"\n'), after);
    } else {
      assert.ok(!after.includes("rat_catcher:cheese_wedge") && after.includes("rat_catcher:cheddar_wedge"), u);
    }
  }
  summary.rename = { files: naming.length, edits: Object.values(changes).reduce((n, es) => n + es.length, 0) };

  // Code action for the unknown event: the "did you mean" fix, which writes `creature_died`.
  const actions = await conn.sendRequest(rpc.CodeActionRequest.type, {
    textDocument: { uri: uriOf(quests) },
    range: event.range,
    context: { diagnostics: [event] },
  });
  const fix = actions.find((a) => a.kind === "quickfix" && /creature_died/.test(a.title));
  assert.ok(fix, `a did-you-mean fix among ${JSON.stringify(actions.map((a) => a.title))}`);
  const fixEdits = (fix.edit.changes || {})[uriOf(quests)] || (fix.edit.documentChanges || []).flatMap((d) => d.edits);
  const fixed = apply(questsText, fixEdits);
  assert.ok(!fixed.includes("creature_dyed") && fixed.split("\n")[event.range.start.line].includes('"creature_died"'), fixed);
  summary.fix = fix.title;

  // Symbols: the file's entries, and the workspace's by a fuzzy query.
  const symbols = await conn.sendRequest(rpc.DocumentSymbolRequest.type, { textDocument: { uri: uriOf(quests) } });
  const names = JSON.stringify(symbols);
  for (const id of ["rat_catcher:tails_for_coin", "rat_catcher:find_the_nest", "rat_catcher:slay_the_queen"]) {
    assert.ok(names.includes(id), `${id} in ${names}`);
  }
  const found = await conn.sendRequest(rpc.WorkspaceSymbolRequest.type, { query: "cudgel" });
  const cudgel = found.find((s) => s.name === "rat_catcher:ratcatchers_cudgel");
  assert.ok(cudgel, JSON.stringify(found));
  assert.equal(cudgel.location.uri, uriOf(items));
  summary.workspace_symbols = found.length;

  await conn.sendRequest(rpc.ShutdownRequest.type);
  conn.sendNotification(rpc.ExitNotification.type);
  console.log(JSON.stringify(summary, null, 2));
}

main().then(
  () => setTimeout(() => process.exit(0), 100),
  (e) => {
    console.error(e && e.stack ? e.stack : e);
    child.kill();
    process.exit(1);
  },
);
