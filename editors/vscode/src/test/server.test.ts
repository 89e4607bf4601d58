// Tests of the editor-independent part of the extension, run by `node --test` on the compiled JS.

import { strict as assert } from "assert";
import * as fs from "fs";
import * as path from "path";
import { test } from "node:test";
import {
  Host,
  RELEASES_URL,
  SCENARIO_GLOBS,
  SHOW_BALANCE,
  ServerNotFoundError,
  balanceArguments,
  balanceDocument,
  balancePath,
  checkArgs,
  checkSummary,
  documentFilters,
  filterPattern,
  findServer,
  formatCheckReport,
  idAtPosition,
  lootArgs,
  modRootOf,
  parseBalanceReport,
  parseCheckReport,
  pathDirectories,
  schemaAssociations,
  scalarColumnToUtf16,
  serverOptions,
  simulateArgs,
  statusText,
  toProblemRange,
} from "../server";

function fakeHost(files: string[], env: Record<string, string> = {}, platform: NodeJS.Platform = "linux"): Host {
  const set = new Set(files);
  return { platform, env, isFile: (p) => set.has(p), homedir: () => "/home/modder" };
}

const EXT = "/ext/rustkeep-0.1.0";

test("the setting wins over the bundled binary and PATH", () => {
  const host = fakeHost(["/opt/rk/rustkeep", `${EXT}/server/rustkeep`, "/usr/bin/rustkeep"], { PATH: "/usr/bin" });
  const found = findServer({ settingPath: "/opt/rk/rustkeep", extensionPath: EXT }, host);
  assert.deepEqual(found, { command: "/opt/rk/rustkeep", source: "setting" });
});

test("a relative or ~ setting is resolved against the workspace or the home folder", () => {
  const host = fakeHost(["/work/mods/target/release/rustkeep", "/home/modder/.cargo/bin/rustkeep"]);
  assert.equal(
    findServer({ settingPath: "target/release/rustkeep", extensionPath: EXT, workspaceFolder: "/work/mods" }, host).command,
    "/work/mods/target/release/rustkeep",
  );
  assert.equal(
    findServer({ settingPath: "${workspaceFolder}/target/release/rustkeep", extensionPath: EXT, workspaceFolder: "/work/mods" }, host)
      .command,
    "/work/mods/target/release/rustkeep",
  );
  assert.equal(findServer({ settingPath: "~/.cargo/bin/rustkeep", extensionPath: EXT }, host).command, "/home/modder/.cargo/bin/rustkeep");
});

test("a setting that points nowhere is an error naming the setting, not a silent fallback", () => {
  const host = fakeHost([`${EXT}/server/rustkeep`, "/usr/bin/rustkeep"], { PATH: "/usr/bin" });
  assert.throws(
    () => findServer({ settingPath: "/nope/rustkeep", extensionPath: EXT }, host),
    (e: unknown) => e instanceof ServerNotFoundError && /rustkeep\.server\.path/.test(e.message) && /\/nope\/rustkeep/.test(e.message),
  );
});

test("the bundled binary comes before PATH when the setting is empty", () => {
  const host = fakeHost([`${EXT}/server/rustkeep`, "/usr/bin/rustkeep"], { PATH: "/usr/bin" });
  assert.deepEqual(findServer({ settingPath: "  ", extensionPath: EXT }, host), {
    command: `${EXT}/server/rustkeep`,
    source: "bundled",
  });
});

test("PATH is searched in order", () => {
  const host = fakeHost(["/b/rustkeep", "/c/rustkeep"], { PATH: "/a::/b:/c" });
  assert.deepEqual(findServer({ extensionPath: EXT }, host), { command: "/b/rustkeep", source: "path" });
});

test("Windows: Path in any case, ; as separator, rustkeep.exe", () => {
  const host = fakeHost(["C:\\tools\\rustkeep.exe"], { Path: 'C:\\Windows;"C:\\tools"' }, "win32");
  assert.deepEqual(pathDirectories(host), ["C:\\Windows", "C:\\tools"]);
  assert.deepEqual(findServer({ extensionPath: "C:\\ext" }, host), { command: "C:\\tools\\rustkeep.exe", source: "path" });
});

test("no binary anywhere gives an error that says where it looked and how to install", () => {
  const host = fakeHost([], { PATH: "/usr/bin:/bin" });
  assert.throws(
    () => findServer({ extensionPath: EXT }, host),
    (e: unknown) =>
      e instanceof ServerNotFoundError &&
      e.message.includes("no `rustkeep` binary found") &&
      e.message.includes(`${EXT}/server/rustkeep`) &&
      e.message.includes("2 PATH directories") &&
      e.message.includes("cargo install") &&
      e.message.includes("rustkeep.server.path"),
  );
});

test("discovery order: the setting, else the bundled binary, else PATH, for every combination", () => {
  const setting = "/opt/rk/rustkeep";
  const bundled = `${EXT}/server/rustkeep`;
  const onPath = "/usr/bin/rustkeep";
  for (const withSetting of [false, true]) {
    for (const withBundled of [false, true]) {
      for (const withPath of [false, true]) {
        const files = [withSetting ? setting : "", withBundled ? bundled : "", withPath ? onPath : ""].filter((f) => f.length > 0);
        const host = fakeHost(files, { PATH: "/usr/bin" });
        const options = { settingPath: withSetting ? setting : "", extensionPath: EXT };
        const expected = withSetting
          ? { command: setting, source: "setting" }
          : withBundled
            ? { command: bundled, source: "bundled" }
            : withPath
              ? { command: onPath, source: "path" }
              : undefined;
        const label = `setting ${withSetting}, bundled ${withBundled}, PATH ${withPath}`;
        if (expected === undefined) {
          assert.throws(() => findServer(options, host), ServerNotFoundError, label);
        } else {
          assert.deepEqual(findServer(options, host), expected, label);
        }
      }
    }
  }
});

test("a development build of the workspace comes after the bundled binary and before PATH: release, then debug", () => {
  const release = "/src/rustkeep-modkit/target/release/rustkeep";
  const debug = "/src/rustkeep-modkit/target/debug/rustkeep";
  const options = { extensionPath: EXT, workspaceFolder: "/src/rustkeep-modkit" };
  const found = (files: string[]) => findServer(options, fakeHost(files, { PATH: "/usr/bin" }));
  assert.deepEqual(found([release, debug, "/usr/bin/rustkeep"]), { command: release, source: "workspace" });
  assert.deepEqual(found([debug, "/usr/bin/rustkeep"]), { command: debug, source: "workspace" });
  assert.deepEqual(found([`${EXT}/server/rustkeep`, debug]), { command: `${EXT}/server/rustkeep`, source: "bundled" });
  const second = findServer(
    { extensionPath: EXT, workspaceFolder: "/mods", workspaceFolders: ["/mods", "/src/rk"] },
    fakeHost(["/src/rk/target/debug/rustkeep"]),
  );
  assert.deepEqual(second, { command: "/src/rk/target/debug/rustkeep", source: "workspace" }, "any workspace folder");
});

test("the not-found message names every place searched and where the setting counts", () => {
  const host = fakeHost([], { PATH: "/usr/local/bin:/usr/bin" });
  try {
    findServer({ extensionPath: EXT, workspaceFolder: "/w" }, host);
    assert.fail("no binary must be an error");
  } catch (e) {
    assert.ok(e instanceof ServerNotFoundError);
    for (const part of ["/w/target/release/rustkeep", "/w/target/debug/rustkeep", "/usr/local/bin:/usr/bin", "machine setting", "Remote settings"]) {
      assert.ok(e.message.includes(part), `${part} in: ${e.message}`);
    }
  }
});

test("the package of a platform bundles server/rustkeep.exe on Windows and is found before PATH", () => {
  const host = fakeHost(["C:\\ext\\server\\rustkeep.exe", "C:\\tools\\rustkeep.exe"], { Path: "C:\\tools" }, "win32");
  assert.deepEqual(findServer({ extensionPath: "C:\\ext" }, host), { command: "C:\\ext\\server\\rustkeep.exe", source: "bundled" });
});

test("the universal package (no server/ folder) uses rustkeep on PATH", () => {
  const host = fakeHost(["/home/modder/.cargo/bin/rustkeep"], { PATH: "/usr/local/bin:/home/modder/.cargo/bin" });
  assert.deepEqual(findServer({ extensionPath: EXT }, host), { command: "/home/modder/.cargo/bin/rustkeep", source: "path" });
});

test("without a binary the message says what to do: the install command, the releases, the setting", () => {
  const host = fakeHost([], { PATH: "/usr/bin" });
  try {
    findServer({ extensionPath: EXT }, host);
    assert.fail("no binary must be an error");
  } catch (e) {
    assert.ok(e instanceof ServerNotFoundError);
    for (const part of ["cargo install rustkeep-cli --locked", RELEASES_URL, "rustkeep.server.path", "rustkeep: Restart language server"]) {
      assert.ok(e.message.includes(part), `${part} in: ${e.message}`);
    }
  }
  const manifest = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8"));
  assert.equal(RELEASES_URL, `${manifest.repository.url.replace(/\.git$/, "")}/releases`, "the releases of the extension's repository");
  const restart = manifest.contributes.commands.find((c: { command: string }) => c.command === "rustkeep.restartServer");
  assert.equal(`${restart.category}: ${restart.title}`, "rustkeep: Restart language server", "the message names the command as the palette shows it");
});

test("the server is started as `<binary> lsp` with the extra environment on top", () => {
  const spec = serverOptions({ command: "/usr/bin/rustkeep", source: "path" }, { HOME: "/h", RUST_LOG: "warn" }, { RUST_LOG: "debug" }, "/w");
  assert.equal(spec.run.command, "/usr/bin/rustkeep");
  assert.deepEqual(spec.run.args, ["lsp"]);
  assert.deepEqual(spec.debug.args, ["lsp"]);
  assert.equal(spec.run.options.env.RUST_LOG, "debug");
  assert.equal(spec.run.options.env.HOME, "/h");
  assert.equal(spec.run.options.cwd, "/w");
  assert.equal(spec.debug.options.env.RUST_BACKTRACE, "1");
});

test("documents served: TOML files of mod folders, outermost folder only, plus a workspace's rustkeep.toml", () => {
  const filters = documentFilters(
    ["/w/rustkeep.toml", "/w/mods/a/mod.toml", "/w/mods/a/sub/mod.toml", "/w/mods/b/mod.toml", "/w/Cargo.toml"],
    { platform: "linux" },
  );
  assert.deepEqual(
    filters.map((f) => [f.root, f.glob, f.language, f.scheme]),
    [
      ["/w/mods/a", "**/*.toml", "toml", "file"],
      ["/w/mods/b", "**/*.toml", "toml", "file"],
      ["/w", "rustkeep.toml", "toml", "file"],
    ],
  );
  assert.deepEqual(documentFilters(["/w/Cargo.toml"], { platform: "linux" }), []);
});

test("scenario files beside the mods are served: each workspace folder's scenario globs", () => {
  // `examples/scenarios/` next to `examples/rat_catcher`: in no mod folder, yet the server's own.
  const filters = documentFilters(["/w/examples/rat_catcher/mod.toml", "/w/examples/crypt/mod.toml"], { platform: "linux" }, ["/w/examples"]);
  assert.deepEqual(
    filters.map((f) => [f.root, f.glob]),
    [
      ["/w/examples/crypt", "**/*.toml"],
      ["/w/examples/rat_catcher", "**/*.toml"],
      ...SCENARIO_GLOBS.map((g) => ["/w/examples", g]),
    ],
  );
  assert.equal(filterPattern(filters[2]), "/w/examples/**/scenarios/*.toml");
  // A folder that is a mod folder is served whole already; no mod at all starts nothing.
  assert.deepEqual(
    documentFilters(["/w/m/mod.toml"], { platform: "linux" }, ["/w/m"]).map((f) => f.glob),
    ["**/*.toml"],
  );
  assert.deepEqual(documentFilters([], { platform: "linux" }, ["/w"]), []);
});

test("a check's summary in words, as the toast says it", () => {
  assert.equal(checkSummary({ errors: 0, warnings: 0, files: 18, mods: 2 }), "no errors, no warnings in 18 files of 2 mods");
  assert.equal(checkSummary({ errors: 1, warnings: 2, files: 1, mods: 1 }), "1 error, 2 warnings in 1 file of 1 mod");
  assert.doesNotMatch(checkSummary({ errors: 0, warnings: 3, files: 5, mods: 1 }), /\(s\)/);
});

test("a balance report's document is named by its title, one path segment", () => {
  const md = ".md";
  assert.equal(balancePath({ title: "Balance of core:rat", markdown: "" }), `/Balance of core:rat${md}`);
  assert.equal(balancePath({ title: "Balance of m:floors/floor_3", markdown: "" }), `/Balance of m:floors\u2215floor_3${md}`);
  assert.equal(balancePath({ title: "a\u001b]0;x", markdown: "" }), `/a ]0;x${md}`);
  assert.equal(balancePath({ title: "  ", markdown: "" }), `/Balance${md}`);
});

test("filters become absolute glob strings", () => {
  assert.equal(filterPattern({ scheme: "file", language: "toml", root: "/w/mods/a", glob: "**/*.toml" }), "/w/mods/a/**/*.toml");
  assert.equal(filterPattern({ scheme: "file", language: "toml", root: "C:\\w\\mods", glob: "rustkeep.toml" }), "C:/w/mods/rustkeep.toml");
  assert.equal(filterPattern({ scheme: "file", language: "toml", root: "/w/[old] {x}", glob: "**/*.toml" }), "/w/[[]old] [{]x[}]/**/*.toml");
});

test("a file's mod folder is the nearest folder above it with a mod.toml", () => {
  const host = fakeHost(["/w/mods/a/mod.toml"]);
  assert.equal(modRootOf("/w/mods/a/quests/rats.toml", host), "/w/mods/a");
  assert.equal(modRootOf("/w/Cargo.toml", host), undefined);
});

test("the ID under the cursor", () => {
  const line = '  { table = "core:rare_table", weight = 1 },';
  const start = line.indexOf("core:");
  assert.equal(idAtPosition(line, start), "core:rare_table");
  assert.equal(idAtPosition(line, start + 7), "core:rare_table");
  assert.equal(idAtPosition(line, start + "core:rare_table".length), "core:rare_table");
  assert.equal(idAtPosition(line, 4), undefined);
  assert.equal(idAtPosition('loot = "m:floors/floor_3"', 12), "m:floors/floor_3");
  assert.equal(idAtPosition('name = "Ölfass"', 10), undefined);
  assert.equal(idAtPosition('x = "Core:Rat"', 6), undefined);
});

test("command lines of the three commands", () => {
  assert.deepEqual(checkArgs(), ["check", "--format", "json", "--no-color"]);
  assert.deepEqual(lootArgs("core:floor_3_table"), ["loot", "core:floor_3_table", "--format", "human", "--no-color"]);
  assert.deepEqual(simulateArgs("/w/scenarios/a.toml"), ["simulate", "/w/scenarios/a.toml", "--format", "human"]);
});

const REPORT = JSON.stringify({
  diagnostics: [
    {
      code: "unknown-event",
      severity: "error",
      message: "`enemy_killed` is not an event",
      file: "mods/m/quests.toml",
      range: { start: { line: 2, column: 6 }, end: { line: 2, column: 20 } },
      fix: { message: "replace with `creature_died`", replacement: '"creature_died"' },
    },
    {
      code: "unknown-tag",
      severity: "warning",
      message: "no entry carries `m:ghost`",
      file: "mods/m/items.toml",
      range: { start: { line: 1, column: 3 }, end: { line: 1, column: 4 } },
      related: [{ message: "checked here", file: "mods/m/items.toml", range: { start: { line: 1, column: 1 }, end: { line: 1, column: 2 } } }],
    },
  ],
  summary: { errors: 1, warnings: 1, files: 2, mods: 1 },
});

test("check JSON becomes output lines", () => {
  const lines = formatCheckReport(parseCheckReport(REPORT), "/w");
  assert.deepEqual(lines, [
    "rustkeep check in /w",
    "mods/m/quests.toml:2:6: error[unknown-event]: `enemy_killed` is not an event",
    "    fix: replace with `creature_died`",
    "mods/m/items.toml:1:3: warning[unknown-tag]: no entry carries `m:ghost`",
    "    mods/m/items.toml:1:1: note: checked here",
    "1 error, 1 warning in 2 files of 1 mod",
  ]);
  assert.throws(() => parseCheckReport("error: nothing"), /did not print JSON/);
  assert.throws(() => parseCheckReport("{}"), /without `diagnostics`/);
});

test("columns count Unicode scalars in the JSON and UTF-16 units in VS Code", () => {
  const line = 'name = "🐀 Rättin"';
  // Column 10 is the space after the emoji: 9 scalars before it, 10 UTF-16 units.
  assert.equal(scalarColumnToUtf16(line, 10), 10);
  assert.equal(scalarColumnToUtf16(line, 1), 0);
  assert.equal(scalarColumnToUtf16("ab", 5), 4);
  const range = toProblemRange({ start: { line: 2, column: 10 }, end: { line: 2, column: 17 } }, `[[items]]\r\n${line}\n`);
  assert.deepEqual(range, { startLine: 1, startCharacter: 10, endLine: 1, endCharacter: 17 });
});

const root = path.join(__dirname, "..", "..");

test("the manifest activates on mod workspaces and TOML, contributes the commands, setting and schema", () => {
  const manifest = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8"));
  assert.deepEqual(manifest.activationEvents, ["workspaceContains:**/mod.toml", "workspaceContains:**/rustkeep.toml", "onLanguage:toml"]);
  const commands = manifest.contributes.commands.map((c: { command: string }) => c.command);
  for (const c of ["rustkeep.checkWorkspace", "rustkeep.lootUnderCursor", "rustkeep.simulateScenario"]) {
    assert.ok(commands.includes(c), c);
  }
  assert.equal(manifest.contributes.configuration.properties["rustkeep.server.path"].type, "string");
  const rules: { regexMatch: string; url: string }[] = manifest.contributes.tomlValidation;
  for (const v of rules) {
    assert.ok(fs.existsSync(path.join(root, v.url)), v.url);
    assert.ok(!new RegExp(v.regexMatch).test("file:///w/Cargo.toml"), `${v.regexMatch} must not match Cargo.toml`);
  }
  // Each file goes to exactly one schema: the one of its kind.
  const schemasOf = (uri: string) => rules.filter((v) => new RegExp(v.regexMatch).test(uri)).map((v) => path.basename(v.url));
  assert.deepEqual(schemasOf("file:///w/lantern_guild/items.toml"), ["rustkeep.draft-07.schema.json"]);
  assert.deepEqual(schemasOf("file:///w/mods/lantern_guild/quests/rats.toml"), ["rustkeep.draft-07.schema.json"]);
  assert.deepEqual(schemasOf("file:///w/mods/m/mod.toml"), ["mod.draft-07.schema.json"]);
  assert.deepEqual(schemasOf("file:///w/rustkeep.toml"), ["workspace.draft-07.schema.json"]);
});

test("the schema shipped with the extension is the repository's draft-07 schema", () => {
  const repoSchema = path.join(root, "..", "..", "schemas", "rustkeep.draft-07.schema.json");
  const shipped = fs.readFileSync(path.join(root, "schemas", "rustkeep.draft-07.schema.json"), "utf8");
  assert.equal(shipped, fs.readFileSync(repoSchema, "utf8"), "stale copy: run `npm run sync-schema`");
  assert.equal(JSON.parse(shipped).$schema, "http://json-schema.org/draft-07/schema#");
});

// The packaging script of the release (scripts/package-platform.js, plain Node so that the release
// workflow runs it without a build step).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const platforms = require(path.join(root, "scripts", "package-platform.js"));

test("every target of the release has a VS Code platform, and the archive and package names follow the release's", () => {
  const config = fs.readFileSync(path.join(root, "..", "..", "dist-workspace.toml"), "utf8");
  const line = config.split("\n").find((l) => /^targets\s*=/.test(l));
  assert.ok(line, "dist-workspace.toml lists its targets");
  const releaseTargets = [...line.matchAll(/"([^"]+)"/g)].map((m) => m[1]).sort();
  assert.deepEqual(Object.keys(platforms.TARGETS).sort(), releaseTargets, "the script packages exactly the release's targets");
  assert.equal(platforms.vscodeTarget("x86_64-unknown-linux-gnu"), "linux-x64");
  assert.equal(platforms.vscodeTarget("aarch64-unknown-linux-musl"), "alpine-arm64");
  assert.equal(platforms.vscodeTarget("aarch64-apple-darwin"), "darwin-arm64");
  assert.equal(platforms.vscodeTarget("x86_64-pc-windows-msvc"), "win32-x64");
  assert.throws(() => platforms.vscodeTarget("riscv64gc-unknown-linux-gnu"), /no VS Code platform for the Rust target riscv64gc/);
  assert.equal(platforms.archiveName("x86_64-unknown-linux-gnu"), "rustkeep-cli-x86_64-unknown-linux-gnu.tar.xz");
  assert.equal(platforms.archiveName("x86_64-pc-windows-msvc"), "rustkeep-cli-x86_64-pc-windows-msvc.zip");
  assert.equal(platforms.exeName("x86_64-pc-windows-msvc"), "rustkeep.exe");
  assert.equal(platforms.vsixName("0.1.0", "linux-x64"), "rustkeep-0.1.0-linux-x64.vsix");
  assert.equal(platforms.vsixName("0.1.0"), "rustkeep-0.1.0.vsix");
  // Every platform is one vsce accepts.
  const vsce = new Set(["win32-x64", "win32-arm64", "linux-x64", "linux-arm64", "linux-armhf", "darwin-x64", "darwin-arm64", "alpine-x64", "alpine-arm64", "web"]);
  for (const p of Object.values(platforms.TARGETS)) assert.ok(vsce.has(p as string), `${p}`);
});

test("the packaging script's arguments", () => {
  assert.deepEqual(platforms.parseArgs(["--target", "x86_64-unknown-linux-gnu", "--binary", "b", "--verify"]), {
    target: "x86_64-unknown-linux-gnu",
    binary: "b",
    verify: true,
  });
  assert.throws(() => platforms.parseArgs(["--target"]), /unknown or incomplete argument --target/);
  assert.throws(() => platforms.parseArgs(["--frobnicate"]), /usage:/);
});

test("Even Better TOML gets absolute schema URLs; the user's other associations stay, an older version's go", () => {
  const rules = [
    { regexMatch: "^.*/mod\\.toml$", url: "./schemas/mod.draft-07.schema.json" },
    { regexMatch: "^.*/rustkeep\\.toml$", url: "./schemas/workspace.draft-07.schema.json" },
  ];
  const ext = "file:///home/u/.vscode/extensions/rustkeep.rustkeep-0.2.0";
  const mine = { "^.*/Cargo\\.toml$": "https://example.org/cargo.json" };
  const old = { "^.*/old\\.toml$": "file:///home/u/.vscode/extensions/rustkeep.rustkeep-0.1.0/schemas/mod.draft-07.schema.json" };
  const next = schemaAssociations(rules, ext, "rustkeep.rustkeep-", { ...mine, ...old });
  assert.deepEqual(next, {
    ...mine,
    "^.*/mod\\.toml$": `${ext}/schemas/mod.draft-07.schema.json`,
    "^.*/rustkeep\\.toml$": `${ext}/schemas/workspace.draft-07.schema.json`,
  });
  for (const url of Object.values(next ?? {})) assert.ok(!url.includes("./"), url);
  // Once written, nothing changes.
  assert.equal(schemaAssociations(rules, ext + "/", "rustkeep.rustkeep-", next ?? {}), undefined);
});

test("the status bar item: spinning while starting, the mods once loaded, an error when stopped or missing", () => {
  assert.equal(statusText({ kind: "idle" }), undefined, "hidden without a mod");
  assert.match(statusText({ kind: "starting" })!.text, /sync~spin/);
  assert.equal(statusText({ kind: "ready", mods: 2, files: 9, version: "0.1.0" })!.text, "$(check) rustkeep: 2 mods");
  assert.equal(statusText({ kind: "ready", mods: 1 })!.text, "$(check) rustkeep: 1 mod");
  assert.match(statusText({ kind: "ready", mods: 2, files: 9, version: "0.1.0" })!.tooltip, /rustkeep 0\.1\.0 is ready: 2 mods and 9 files \(data files, manifests and scenarios, as `rustkeep check` counts them\) loaded/);
  assert.equal(statusText({ kind: "ready" })!.text, "$(check) rustkeep", "an older server without rustkeep/loaded");
  for (const kind of ["crashed", "not-found"] as const) {
    const s = statusText({ kind })!;
    assert.ok(s.problem, kind);
    assert.match(s.tooltip, /show the log/, kind);
  }
  assert.ok(!statusText({ kind: "ready", mods: 0 })!.problem);
});

test("rustkeep.showBalance: a lens's arguments go as they are, the palette sends the cursor", () => {
  const uri = "file:///w/rat_catcher/creatures.toml";
  const cursor = { uri, line: 4, character: 7 };
  assert.deepEqual(balanceArguments([uri, "rat_catcher:sewer_rat"], cursor), [uri, "rat_catcher:sewer_rat"]);
  const at = [{ uri, position: { line: 1, character: 2 } }];
  assert.deepEqual(balanceArguments(at, cursor), at);
  assert.deepEqual(balanceArguments([], cursor), [{ uri, position: { line: 4, character: 7 } }]);
  // A menu's `Uri` object is no argument the server reads: the cursor instead.
  assert.deepEqual(balanceArguments([{ scheme: "file", path: "/w/x.toml" }], cursor), [{ uri, position: { line: 4, character: 7 } }]);
  assert.equal(balanceArguments([], undefined), undefined, "no lens, no editor");
});

test("rustkeep.showBalance: the server's report becomes a markdown document under its title", () => {
  const report = parseBalanceReport({ title: "Balance of core:rat", markdown: "| class | win rate |\n|---|---|\n" });
  assert.deepEqual(report, { title: "Balance of core:rat", markdown: "| class | win rate |\n|---|---|\n" });
  assert.equal(balanceDocument(report), "# Balance of core:rat\n\n| class | win rate |\n|---|---|\n");
  assert.equal(balanceDocument({ title: "Balance of core:rat", markdown: "# core:rat\n\ntext" }), "# core:rat\n\ntext", "its own heading is kept");
  assert.equal(parseBalanceReport({ markdown: "x" }).title, "Balance");
  for (const bad of [null, undefined, "text", {}, { title: "t" }, { markdown: 3 }]) {
    assert.throws(() => parseBalanceReport(bad), /rustkeep\.showBalance has no report/, JSON.stringify(bad));
  }
});

test("rustkeep.showBalance is contributed, in the palette of TOML editors, and registered by the extension", () => {
  const manifest = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8"));
  const contributed = manifest.contributes.commands.find((c: { command: string }) => c.command === SHOW_BALANCE);
  assert.equal(`${contributed?.category}: ${contributed?.title}`, "rustkeep: Show balance of the entry under the cursor");
  const palette = manifest.contributes.menus.commandPalette.find((m: { command: string }) => m.command === SHOW_BALANCE);
  assert.equal(palette?.when, "editorLangId == toml");
  // The server does not announce the command (vscode-languageclient would register it too).
  const source = fs.readFileSync(path.join(root, "src", "extension.ts"), "utf8");
  assert.ok(source.includes("registerCommand(server.SHOW_BALANCE,"), "extension.ts registers it");
});

test("the extension creates its trace channel once, not per start of the server", () => {
  const source = fs.readFileSync(path.join(root, "src", "extension.ts"), "utf8");
  const creations = source.match(/createOutputChannel\("rustkeep language server trace"\)/g) ?? [];
  assert.equal(creations.length, 1);
  const activate = source.slice(source.indexOf("export async function activate"));
  assert.ok(activate.includes('createOutputChannel("rustkeep language server trace")'), "created in activate");
});

test("every start and stop of the server waits its turn: no two run side by side", () => {
  // A restart asked for while another start was still finding the manifests left two clients, one
  // running unseen; a stop reached a client that was still starting ("Starting server failed").
  const source = fs.readFileSync(path.join(root, "src", "extension.ts"), "utf8");
  const calls = [...source.matchAll(/\b(startClient|stopClient)\b(?!\(context: |\(\): )/g)].map((m) => source.slice(Math.max(0, m.index! - 40), m.index! + 30));
  assert.ok(calls.length >= 3, calls.join("\n"));
  for (const call of calls) assert.match(call, /queued\(|await (stopClient|startClient)\(/, `outside the queue: ${call}`);
  const restart = source.slice(source.indexOf("function restartClient"), source.indexOf("function setStatus"));
  assert.match(restart, /return queued\(async \(\) => \{\s*await stopClient\(\);\s*await startClient\(context\);/);
  // Whether an exit was asked for is known per client, not by one flag a later stop resets.
  assert.doesNotMatch(source, /let stopping\b/);
  assert.match(source, /retired\.has\(started\)/);
});
