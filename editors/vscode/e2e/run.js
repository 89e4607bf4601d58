// The end-to-end test of the VS Code extension in a real VS Code window: code-server (VS Code in
// a browser) driven by Debian's Chromium through puppeteer-core. The packaged .vsix is installed
// alone (a fresh extensions folder and user-data folder), a copy of the example mods is opened,
// and every feature a modder sees is exercised through the keyboard and the command palette.
// Each step waits on a condition in the page, never on a fixed delay, and leaves a screenshot.
//
// usage: node run.js --vsix PATH --server PATH [--out DIR] [--code-server PATH] [--chromium PATH]
// Without code-server or Chromium the test skips (exit 0); with RUSTKEEP_REQUIRE_TOOLS=1 (CI) it
// fails instead. Exit code 1 on any failed check.

"use strict";

const fs = require("fs");
const net = require("net");
const os = require("os");
const path = require("path");
const { parseArgs } = require("util");
const { spawn, execFileSync } = require("child_process");

const repo = path.resolve(__dirname, "..", "..", "..");
const codeServerVersion = require("./package.json").config.codeServer;

// `--name VALUE` options; anything else is refused.
const { values: opt } = parseArgs({ options: { "code-server": { type: "string" }, chromium: { type: "string" }, out: { type: "string" }, vsix: { type: "string" }, server: { type: "string" } } });
const cacheHome = process.env.XDG_CACHE_HOME || path.join(os.homedir(), ".cache");
const codeServer =
  opt["code-server"] || process.env.RUSTKEEP_CODE_SERVER || path.join(cacheHome, "rustkeep", `code-server-${codeServerVersion}`, "node_modules", ".bin", "code-server");
const chromium = opt.chromium || process.env.RUSTKEEP_CHROMIUM || "/usr/bin/chromium";
const outDir = path.resolve(opt.out || path.join(repo, "target", "vscode-e2e"));
const vsix = opt.vsix && path.resolve(opt.vsix);
const server = opt.server && path.resolve(opt.server);
const required = process.env.RUSTKEEP_REQUIRE_TOOLS === "1";

function missing(what) {
  if (required) {
    console.error(`vscode-e2e: ${what} is missing, and RUSTKEEP_REQUIRE_TOOLS=1`);
    process.exit(1);
  }
  console.log(`vscode-e2e: skipped, ${what} is missing`);
  process.exit(0);
}

if (!vsix || !fs.existsSync(vsix)) throw new Error(`--vsix: no package at ${vsix}`);
if (!server || !fs.existsSync(server)) throw new Error(`--server: no rustkeep binary at ${server}`);
if (!fs.existsSync(codeServer)) missing(`code-server (${codeServer}; editors/vscode/e2e/install-code-server.sh installs it)`);
if (!fs.existsSync(chromium)) missing(`Chromium (${chromium})`);
let puppeteer;
try {
  puppeteer = require("puppeteer-core");
} catch {
  missing("puppeteer-core (npm ci in editors/vscode/e2e)");
}

// --- the window's surroundings: a home, a user-data folder, an extensions folder, the mods ---

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "rustkeep-vscode-e2e-"));
const home = path.join(tmp, "home");
const userData = path.join(tmp, "user-data");
const extensions = path.join(tmp, "extensions");
const workspace = path.join(tmp, "examples");
for (const d of [home, userData, extensions]) fs.mkdirSync(d, { recursive: true });
// The example mods and their scenarios; not `examples/broken`, whose deliberate errors would
// bury the one typo the test types among two dozen problems.
fs.cpSync(path.join(repo, "examples"), workspace, { recursive: true, filter: (src) => path.basename(src) !== "broken" });
fs.rmSync(outDir, { recursive: true, force: true });
fs.mkdirSync(outDir, { recursive: true });

// A badly laid-out line for Format Document: the first `price = N` of fire_and_thorns/items.toml.
const formatFile = path.join(workspace, "fire_and_thorns", "items.toml");
const formatText = fs.readFileSync(formatFile, "utf8").split("\n");
const formatLine = formatText.findIndex((l) => /^price = \d+$/.test(l));
if (formatLine < 0) throw new Error("fire_and_thorns/items.toml has no `price = N` line");
const formatGood = formatText[formatLine];
formatText[formatLine] = `   ${formatGood.replace(" = ", "=")}   `;
fs.writeFileSync(formatFile, formatText.join("\n"));

// The status bar must count the mods `rustkeep check` counts in the same folder.
const checked = JSON.parse(
  (() => {
    try {
      return execFileSync(server, ["check", "--format", "json", workspace], { encoding: "utf8" });
    } catch (e) {
      return e.stdout; // Exit code 1: the broken examples have errors, by design.
    }
  })(),
);
const mods = checked.summary.mods;
const modsText = `rustkeep: ${mods} mod${mods === 1 ? "" : "s"}`;
// The check's toast and the status bar's tooltip count the files `rustkeep check` counts, in words.
const filesText = `${checked.summary.files} files (data files, manifests and scenarios`;
if (checked.summary.errors !== 0 || checked.summary.warnings !== 0) throw new Error(`the examples are not clean: ${JSON.stringify(checked.summary)}`);
const checkToast = `rustkeep check: no errors, no warnings in ${checked.summary.files} files of ${mods} mods`;

const settings = JSON.stringify(
  {
    "security.workspace.trust.enabled": false,
    "workbench.startupEditor": "none",
    "telemetry.telemetryLevel": "off",
    "extensions.autoCheckUpdates": false,
    "extensions.autoUpdate": false,
    "workbench.tips.enabled": false,
    "editor.minimap.enabled": false,
    "window.commandCenter": false,
    "workbench.enableExperiments": false,
    "rustkeep.server.path": server,
  },
  null,
  2,
);
// code-server is a remote window: `rustkeep.server.path`, a machine setting, counts in the
// Machine (remote) settings; the User settings carry the rest.
for (const scope of ["User", "Machine"]) {
  fs.mkdirSync(path.join(userData, scope), { recursive: true });
  fs.writeFileSync(path.join(userData, scope, "settings.json"), settings);
}

const env = { ...process.env, HOME: home, XDG_CONFIG_HOME: path.join(home, ".config"), XDG_DATA_HOME: path.join(home, ".local/share") };
delete env.XDG_CACHE_HOME;
delete env.VSCODE_IPC_HOOK_CLI;

const installed = execFileSync(codeServer, ["--user-data-dir", userData, "--extensions-dir", extensions, "--install-extension", vsix], { env, encoding: "utf8" });
const onlyOurs = fs.readdirSync(extensions).filter((d) => fs.statSync(path.join(extensions, d)).isDirectory());
if (onlyOurs.length !== 1 || !onlyOurs[0].startsWith("rustkeep.rustkeep-")) {
  throw new Error(`the extensions folder should hold the rustkeep extension alone, holds ${onlyOurs.join(", ")}\n${installed}`);
}

function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

// --- steps ---

const started = Date.now();
const results = [];
let page;
let stepNo = 0;

function seconds() {
  return ((Date.now() - started) / 1000).toFixed(1);
}

async function step(name, body) {
  stepNo += 1;
  const shot = path.join(outDir, `${String(stepNo).padStart(2, "0")}-${name.replace(/[^a-z0-9]+/gi, "-").toLowerCase()}.png`);
  const t0 = Date.now();
  try {
    await body();
    await assertNoErrorNotification();
    await page.screenshot({ path: shot });
    results.push({ name, ms: Date.now() - t0, ok: true });
    console.log(`ok   ${name} (${Date.now() - t0} ms, at ${seconds()} s)`);
  } catch (e) {
    await page?.screenshot({ path: shot.replace(/\.png$/, "-FAILED.png") }).catch(() => undefined);
    results.push({ name, ok: false });
    console.log(`FAIL ${name}: ${e.message}`);
    throw e;
  }
}

/** Polls `fn` (run in the page with `arg`) until it returns a truthy value; that value. */
async function until(what, fn, arg, timeout = 20000) {
  try {
    const handle = await page.waitForFunction(fn, { polling: 50, timeout }, arg);
    return await handle.jsonValue();
  } catch (e) {
    throw new Error(`timed out waiting for ${what}`);
  }
}

/**
 * A picture for the documentation (docs/editors/vscode.md): the editor and the panel below it,
 * without the side bar, into `docs/` of the output folder.
 */
async function docShot(name, whole = false) {
  fs.mkdirSync(path.join(outDir, "docs"), { recursive: true });
  if (whole) {
    await page.screenshot({ path: path.join(outDir, "docs", `${name}.png`) });
    return;
  }
  const clip = await page.evaluate(() => {
    const parts = [".part.editor", ".part.panel"].map((s) => document.querySelector(s)?.getBoundingClientRect()).filter((r) => r && r.height > 0);
    const x = Math.min(...parts.map((r) => r.left));
    const y = Math.min(...parts.map((r) => r.top));
    return { x, y, width: Math.max(...parts.map((r) => r.right)) - x, height: Math.max(...parts.map((r) => r.bottom)) - y };
  });
  await page.screenshot({ path: path.join(outDir, "docs", `${name}.png`), clip });
}

/** Polls a condition of this process (a file on disk) every 50 ms until it holds. */
async function poll(what, fn, timeout = 20000) {
  const deadline = Date.now() + timeout;
  while (!fn()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Like `poll`, for a condition that is asked asynchronously (the page's frames). */
async function pollAsync(what, fn, timeout = 20000) {
  const deadline = Date.now() + timeout;
  while (!(await fn())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function assertNoErrorNotification() {
  const errors = await page.evaluate(() =>
    [...document.querySelectorAll(".notification-list-item")]
      .filter((n) => n.querySelector(".codicon-error, .codicon-notifications-error, .notification-list-item-icon.codicon-error"))
      .map((n) => n.textContent),
  );
  if (errors.length > 0) throw new Error(`error notification: ${errors.join(" | ")}`);
}

async function paletteOpen(prefix) {
  await page.bringToFront();
  // Keys reach the workbench only when something in it has the focus.
  const focused = await page.evaluate(() => document.activeElement !== null && document.activeElement !== document.body);
  if (!focused) await page.click(".part.editor");
  await page.keyboard.press("Escape");
  await page.keyboard.press("F1");
  await until("the command palette", () => document.activeElement?.closest(".quick-input-widget") !== null);
  if (prefix !== undefined) {
    // Replace the palette's `>` with another quick-input mode (`:` goes to a line).
    await page.keyboard.press("Backspace");
    await page.keyboard.type(prefix);
  }
}

/** Runs a command from the palette by its label as the palette shows it. */
async function command(label) {
  await paletteOpen();
  await page.keyboard.type(label);
  await until(
    `"${label}" in the palette`,
    (l) => {
      const row = document.querySelector(".quick-input-widget .monaco-list-row.focused");
      return row !== null && (row.getAttribute("aria-label") || "").toLowerCase().startsWith(l.toLowerCase());
    },
    label,
  );
  await page.keyboard.press("Enter");
}

async function openFile(relative) {
  await paletteOpen("");
  await page.keyboard.type(relative);
  const base = path.basename(relative);
  await until(
    `${relative} in quick open`,
    (r) => {
      const row = document.querySelector(".quick-input-widget .monaco-list-row.focused");
      return row !== null && (row.getAttribute("aria-label") || "").includes(r.split("/").pop()) && (row.textContent || "").includes(r.split("/")[0]);
    },
    relative,
  );
  await page.keyboard.press("Enter");
  await until(`${relative} open in the editor`, (b) => (document.querySelector(".tabs-container .tab.active")?.getAttribute("aria-label") || "").startsWith(b), base);
  await until("the editor focused", () => document.activeElement?.closest(".monaco-editor") !== null && document.activeElement.closest(".part.editor") !== null);
}

/** Puts the cursor at a 1-based line and column and waits until the status bar says so. */
async function goTo(line, column) {
  await paletteOpen(":");
  await page.keyboard.type(`${line}:${column}`);
  await page.keyboard.press("Enter");
  await until(`the cursor at ${line}:${column}`, (want) => (document.querySelector('[id="status.editor.selection"]')?.textContent || "").includes(want), `Ln ${line}, Col ${column}`);
}

/** 1-based line and column of the first `needle` in a file of the workspace copy. */
function where(relative, needle, offset = 0) {
  const lines = fs.readFileSync(path.join(workspace, relative), "utf8").split("\n");
  const n = lines.findIndex((l) => l.includes(needle));
  if (n < 0) throw new Error(`no ${needle} in ${relative}`);
  return { line: n + 1, column: lines[n].indexOf(needle) + 1 + offset };
}

async function main() {
  const port = await freePort();
  const log = fs.openSync(path.join(outDir, "code-server.log"), "w");
  const cs = spawn(
    codeServer,
    ["--auth", "none", "--bind-addr", `127.0.0.1:${port}`, "--disable-telemetry", "--disable-update-check", "--disable-workspace-trust", "--user-data-dir", userData, "--extensions-dir", extensions, workspace],
    { env, detached: true, stdio: ["ignore", log, log] },
  );
  let browser;
  try {
    browser = await puppeteer.launch({
      executablePath: chromium,
      headless: true,
      defaultViewport: { width: 1280, height: 800 },
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        `--user-data-dir=${path.join(tmp, "chromium")}`,
      ],
      env,
    });
    page = await browser.newPage();
    await run(port);
  } finally {
    if (browser) await browser.close().catch(() => undefined);
    // A plain kill leaves the extension host and the pty host running: end the process group.
    try {
      process.kill(-cs.pid, "SIGTERM");
    } catch {
      // Already gone.
    }
    fs.closeSync(log);
  }
}

async function run(port) {
  const url = `http://127.0.0.1:${port}/?folder=${encodeURIComponent(workspace)}`;
  await step("workbench", async () => {
    // code-server needs a moment to listen, and to mount its routes after that (a page
    // loaded too early reads "Cannot GET /"): load the page until it answers 200.
    for (;;) {
      let response;
      try {
        response = await page.goto(url, { waitUntil: "domcontentloaded", timeout: 10000 });
      } catch (e) {
        if (Date.now() - started > 30000) throw e;
      }
      if (response?.status() === 200) break;
      if (Date.now() - started > 30000) throw new Error(`code-server answers ${response?.status()}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    await until("the workbench", () => document.querySelector(".monaco-workbench .part.statusbar") !== null, undefined, 30000);
  });

  const items = "rat_catcher/items.toml";
  await step("toml language mode and the server ready", async () => {
    await openFile(items);
    await until("the language mode TOML", () => document.querySelector('[id="status.editor.mode"]')?.textContent?.trim() === "TOML");
    const status = await until(
      "the status bar item ready with the mods",
      () => [...document.querySelectorAll(".statusbar-item")].map((e) => e.textContent || "").find((t) => /rustkeep: \d+ mods?/.test(t)),
      undefined,
      30000,
    );
    if (!status.includes(modsText)) throw new Error(`status bar: ${status}, but \`rustkeep check\` loads ${mods} mods`);
    // Its tooltip counts the files as the check does, and says what it counts.
    const item = await page.evaluateHandle(
      (want) => [...document.querySelectorAll(".statusbar-item")].find((e) => (e.textContent || "").includes(want)),
      modsText,
    );
    await item.hover();
    await until(
      "the status item's tooltip with the files `rustkeep check` counts",
      (want) => [...document.querySelectorAll(".workbench-hover, .monaco-hover")].some((h) => (h.textContent || "").includes(want)),
      filesText,
    );
    await page.mouse.move(640, 300);
  });

  const price = where(items, "price = ");
  await step("a typed typo in the problems panel", async () => {
    await goTo(price.line, price.column + 3);
    await page.keyboard.type("x");
    await page.keyboard.down("Control");
    await page.keyboard.down("Shift");
    await page.keyboard.press("KeyM");
    await page.keyboard.up("Shift");
    await page.keyboard.up("Control");
    await until(
      "the typo in Problems with its line",
      (ln) => {
        const rows = [...document.querySelectorAll(".markers-panel .monaco-list-row")].map((r) => r.textContent || "");
        return rows.some((t) => t.includes("prixce") && t.includes(ln));
      },
      `[Ln ${price.line}, Col ${price.column}]`,
    );
    await docShot("vscode-diagnostics");
  });

  await step("the quick fix clears it", async () => {
    await page.click(".part.editor .monaco-editor .view-lines");
    await goTo(price.line, price.column + 1);
    // Its key, not the palette: the menu then opens at the cursor, as a modder sees it.
    await page.keyboard.down("Control");
    await page.keyboard.press("Period");
    await page.keyboard.up("Control");
    await until("the rename fix in the quick-fix menu", () => (document.querySelector(".action-widget")?.textContent || "").includes("price"));
    // The whole window: the menu may open beside the editor.
    await docShot("vscode-quick-fix", true);
    await page.keyboard.press("Enter");
    await until("Problems empty of the typo", () => ![...document.querySelectorAll(".markers-panel")].some((p) => (p.textContent || "").includes("prixce")));
  });

  await step("completion lists events", async () => {
    const on = where(items, 'on = "', 6);
    await goTo(on.line, on.column);
    // Trigger Suggest has no palette entry: its key.
    await page.keyboard.down("Control");
    await page.keyboard.press("Space");
    await page.keyboard.up("Control");
    const labels = await until(
      "event names in the suggestions",
      () => {
        const rows = [...document.querySelectorAll(".suggest-widget.visible .monaco-list-row")].map((r) => r.getAttribute("aria-label") || "");
        return rows.length >= 5 && rows.some((r) => r.includes("turn_started")) ? rows : undefined;
      },
    );
    for (const event of ["attack_hit", "combat_started", "turn_started"]) {
      if (!labels.some((l) => l.includes(event))) throw new Error(`no ${event} among ${labels.join(", ")}`);
    }
    await page.keyboard.press("Escape");
  });

  const loot = "rat_catcher/loot.toml";
  await step("hover shows loot chances", async () => {
    await openFile(loot);
    const id = where(loot, "rat_catcher:sewer_rat_loot", 4);
    await goTo(id.line, id.column);
    await command("Show or Focus Hover");
    const text = await until("a hover with drop chances", () => {
      const t = [...document.querySelectorAll(".monaco-hover")].map((h) => h.textContent || "").join(" ");
      return t.includes("core:rat_tail") && /\d+(\.\d+)?\s*%/.test(t) ? t : undefined;
    });
    if (!text.includes("rat_catcher:cheese_wedge")) throw new Error(`hover without the cheese wedge: ${text}`);
    await docShot("vscode-hover");
  });

  await step("F12 jumps to the definition", async () => {
    await page.keyboard.press("Escape");
    const ref = where(loot, 'item = "rat_catcher:cheese_wedge"', 12);
    await goTo(ref.line, ref.column);
    await page.keyboard.press("F12");
    const def = where(items, 'id = "rat_catcher:cheese_wedge"');
    await until("items.toml active", () => (document.querySelector(".tabs-container .tab.active")?.getAttribute("aria-label") || "").startsWith("items.toml"));
    await until(`the cursor on line ${def.line}`, (want) => (document.querySelector('[id="status.editor.selection"]')?.textContent || "").includes(want), `Ln ${def.line},`);
  });

  await step("format document fixes a badly laid-out line", async () => {
    await openFile("fire_and_thorns/items.toml");
    const lines = () => [...document.querySelectorAll(".part.editor .monaco-editor .view-line")].map((l) => (l.textContent || "").replace(/\u00a0/g, " "));
    const bad = formatText[formatLine].trim();
    await until("the badly laid-out line in the editor", new Function("bad", `return (${lines})().some((l) => l.trim() === bad)`), bad);
    await command("Format Document");
    await until(
      "the line laid out",
      new Function("want", `const ls = (${lines})(); return ls.some((l) => l === want.good) && !ls.some((l) => l.trim() === want.bad)`),
      { good: formatGood, bad },
    );
    await page.keyboard.down("Control");
    await page.keyboard.press("KeyS");
    await page.keyboard.up("Control");
    await poll("the formatted line saved", () => fs.readFileSync(formatFile, "utf8").split("\n")[formatLine] === formatGood);
  });

  await step("command: check workspace", async () => {
    await command("rustkeep: Check workspace");
    // In words, with the files and mods `rustkeep check` counts: no "0 error(s)".
    await until("the check's notification", (want) => (document.querySelector(".notifications-toasts")?.textContent || "").includes(want), checkToast);
  });

  // The output panel shows the end of a channel: its last line must be the command's own.
  const lastLine = (cmd, cwd) =>
    execFileSync(server, cmd, { cwd, encoding: "utf8" })
      .split("\n")
      .map((l) => l.trimEnd())
      .filter((l) => l.trim().length > 0)
      .pop()
      .trim();
  const shownIn = (channel, line) =>
    until(
      `the end of "${channel}" in the output panel`,
      (want) => {
        const select = document.querySelector(".part.panel select");
        const lines = [...document.querySelectorAll(".part.panel .view-line")].map((l) => (l.textContent || "").replace(/\u00a0/g, " ").trim());
        return select?.selectedOptions?.[0]?.text === want.channel && lines.includes(want.line);
      },
      { channel, line },
    );

  await step("command: loot chances of the table under the cursor", async () => {
    await openFile(loot);
    const id = where(loot, "rat_catcher:nest_table", 4);
    await goTo(id.line, id.column);
    await command("rustkeep: Show loot chances of table under cursor");
    await shownIn("rustkeep loot", lastLine(["loot", "rat_catcher:nest_table", "--format", "human", "--no-color"], path.join(workspace, "rat_catcher")));
  });

  // A scenario beside the mods (`scenarios/` next to `rat_catcher/`, in no mod folder): served
  // like the mods' files — its `▶ run` lens, and its diagnostics as it is typed.
  const scenario = "scenarios/rat_catcher.toml";
  const lensTexts = () => [...document.querySelectorAll(".part.editor .contentWidgets .codelens-decoration > a")].map((a) => (a.textContent || "").replace(/[\u00a0\u202f]/g, " "));
  await step("a scenario beside the mods: its run lens and its diagnostics", async () => {
    await openFile(scenario);
    await until("the ▶ run lens above the scenario", new Function(`return (${lensTexts})().includes("▶ run")`));
    const seed = where(scenario, "seed = ");
    await goTo(seed.line, seed.column + 4);
    await page.keyboard.type("x");
    await command("View: Focus Problems");
    await until(
      "the scenario's unknown field in Problems with its line",
      (ln) => [...document.querySelectorAll(".markers-panel .monaco-list-row")].some((r) => (r.textContent || "").includes("no field `seedx`") && (r.textContent || "").includes(ln)),
      `[Ln ${seed.line}, Col ${seed.column}]`,
    );
    // Back to the text as saved, and the lens runs the scenario's expectations.
    await page.click(".part.editor .monaco-editor .view-lines");
    await page.keyboard.down("Control");
    await page.keyboard.press("KeyZ");
    await page.keyboard.press("KeyS");
    await page.keyboard.up("Control");
    // Saved as it was (the typo may have been saved meanwhile: code-server saves after a delay).
    const original = fs.readFileSync(path.join(repo, "examples", scenario), "utf8");
    await poll("the scenario saved as it was", () => fs.readFileSync(path.join(workspace, scenario), "utf8") === original);
    await until("the scenario's problem gone", () => ![...document.querySelectorAll(".markers-panel")].some((p) => (p.textContent || "").includes("seedx")));
    const lens = await page.evaluate(
      new Function(`const a = [...document.querySelectorAll(".part.editor .contentWidgets .codelens-decoration > a")].find((a) => a.textContent === "▶ run"); const r = a && a.getBoundingClientRect(); return r && { x: r.left + r.width / 2, y: r.top + r.height / 2 }`),
    );
    if (!lens) throw new Error("no ▶ run lens to click");
    await page.mouse.click(lens.x, lens.y);
    await until("the lens with the run's result", new Function(`return (${lensTexts})().some((t) => /^▶ run · \\d+ passed$/.test(t))`));
  });

  await step("command: simulate scenario", async () => {
    await openFile(scenario);
    await command("rustkeep: Simulate scenario");
    await shownIn("rustkeep simulate", lastLine(["simulate", "rat_catcher.toml", "--format", "human"], path.join(workspace, "scenarios")));
  });

  {
    // The balance code lenses above the creatures, and their command `rustkeep.showBalance`.
    const creatures = "rat_catcher/creatures.toml";
    // The first code lens whose text (no-break spaces as spaces) matches `re`, run in the page.
    const findLens = (re) =>
      [...document.querySelectorAll(".part.editor .contentWidgets .codelens-decoration > a")].find((a) =>
        new RegExp(re).test((a.textContent || "").replace(/[\u00a0\u202f]/g, " ")),
      );
    const balanceLens = /\d+ % .*\(1,000 fights\)/.source;
    // The report of `id`: the Markdown preview of a read-only document of the extension
    // (`rustkeep-balance:` scheme, named "Balance of" and the ID), a tab of the creatures' own group, the whole width
    // of the editor area — no untitled document, no Markdown source, no narrow group beside. The
    // preview, a webview, shows the text in a frame of its own; its tables must not be cut.
    const reportShown = async (id) => {
      const name = `Balance of ${id}.md`;
      await until(
        `the preview of ${name}, the active tab of the only editor group`,
        (want) => {
          const groups = document.querySelectorAll(".part.editor .editor-group-container");
          return groups.length === 1 && (groups[0].querySelector(".tab.active")?.getAttribute("aria-label") || "").startsWith(`Preview ${want}`);
        },
        name,
      );
      const untitled = await page.evaluate(() => [...document.querySelectorAll(".tab")].map((t) => t.getAttribute("aria-label") || "").filter((l) => /untitled/i.test(l)));
      if (untitled.length > 0) throw new Error(`untitled documents open: ${untitled.join(", ")}`);
      const frameOf = async () => {
        // The preview's frames come and go while it loads: a detached one throws at once.
        for (const f of page.frames().filter((f) => f !== page.mainFrame() && !f.detached)) {
          try {
            const fits = await f.evaluate(
              (want) =>
                (document.body?.innerText || "").includes(want) && document.querySelector("table") !== null
                  ? { width: document.documentElement.clientWidth, rights: [...document.querySelectorAll("table")].map((t) => Math.ceil(t.getBoundingClientRect().right)) }
                  : undefined,
              id,
            );
            if (fits) return fits;
          } catch {
            // detached meanwhile: the next poll sees the new frame
          }
        }
        return undefined;
      };
      let fits;
      await pollAsync("the report's table in the preview", async () => (fits = await frameOf()) !== undefined);
      if (fits.rights.some((r) => r > fits.width)) throw new Error(`the report's table is cut: it ends at ${fits.rights.join(", ")} px, the preview is ${fits.width} px wide`);
    };

    // Closing a report asks nothing (an untitled document asked whether to save it), and the
    // creatures are in front again for the next keys.
    const closeReport = async () => {
      // By the active tab's close button, as a user closes it (the palette's first match for
      // "Close Editor" varies with what was run before).
      await page.click(".part.editor .tab.active .tab-actions .codicon-close");
      await until(
        "the report closed and the creatures in front, or a dialog",
        () => document.querySelector(".monaco-dialog-box") !== null || document.title.startsWith("creatures.toml"),
      );
      const dialog = await page.evaluate(() => document.querySelector(".monaco-dialog-box")?.textContent);
      if (dialog) throw new Error(`closing the report asks: ${dialog}`);
      await until("the creatures focused", () => document.activeElement?.closest(".monaco-editor") !== null);
    };

    await step("balance lenses above the creatures", async () => {
      await openFile(creatures);
      // The lenses read `balance: computing…` until the arena's figures are in.
      await until("a creature's balance lens with win rates of 1,000 fights", new Function("re", `return (${findLens})(re)?.textContent`), balanceLens);
      // Every lens of the file settled (no `…` or `⟳`): the picture shows figures, not progress.
      await until("every balance lens of the file computed", () => {
        const lenses = [...document.querySelectorAll(".part.editor .contentWidgets .codelens-decoration > a")].map((a) => a.textContent || "");
        return lenses.length >= 2 && lenses.every((t) => /fights\)$/.test(t.trim()));
      });
      const clip = await page.evaluate(() => {
        const r = document.querySelector(".part.editor").getBoundingClientRect();
        return { x: r.left, y: r.top, width: r.width, height: r.height };
      });
      // Not beyond the viewport: a resized viewport would lay the workbench out anew under the clip.
      await page.screenshot({ path: path.join(outDir, "balance-lens.png"), clip, captureBeyondViewport: false });
    });

    await step("the balance lens opens the report beside the editor", async () => {
      // A click of the mouse: the editor runs a lens's command on its mouse-up, not on a DOM click.
      const at = await page.evaluate(
        new Function("re", `const r = (${findLens})(re)?.getBoundingClientRect(); return r && { x: r.left + r.width / 2, y: r.top + r.height / 2 }`),
        balanceLens,
      );
      if (!at) throw new Error("no balance lens to click");
      await page.mouse.click(at.x, at.y);
      await reportShown("rat_catcher:sewer_rat");
      await docShot("vscode-balance-report");
      await closeReport();
    });

    await step("command: balance of the entry under the cursor", async () => {
      // Inside the second creature, not on its ID: the server finds the entry at the position.
      const at = where(creatures, 'name = "The Warren Queen"', 3);
      await goTo(at.line, at.column);
      await command("rustkeep: Show balance of the entry under the cursor");
      await reportShown("rat_catcher:warren_queen");
      await closeReport();
    });
  }

  // What the extension wrote to its output channels, as VS Code logs them on disk.
  const channelLogs = (name) => {
    const found = [];
    const walk = (d) => {
      for (const e of fs.readdirSync(d, { withFileTypes: true })) {
        if (e.isDirectory()) walk(path.join(d, e.name));
        else if (e.name.replace(/^\d+-/, "") === `${name}.log`) found.push(path.join(d, e.name));
      }
    };
    walk(path.join(userData, "logs"));
    return found;
  };

  await step("command: restart language server and show its log", async () => {
    await command("rustkeep: Restart language server");
    const starts = () => channelLogs("rustkeep").map((f) => (fs.readFileSync(f, "utf8").match(/rustkeep: starting /g) || []).length).reduce((a, b) => a + b, 0);
    await poll("a second start in the log", () => starts() >= 2);
    await until(
      "the status bar item ready again",
      (want) => [...document.querySelectorAll(".statusbar-item")].some((e) => (e.textContent || "").includes(want)),
      modsText,
    );
    await command("rustkeep: Show language server log");
    await until("the log in the output panel", () => document.querySelector(".part.panel select")?.selectedOptions?.[0]?.text === "rustkeep");
    const log = channelLogs("rustkeep").map((f) => fs.readFileSync(f, "utf8")).join("");
    if (/\[Error/.test(log)) throw new Error(`the log has an error:\n${log}`);
    // A stop the extension asked for is no crash: no exit reported, not even one of code 0.
    if (/the language server exited/.test(log)) throw new Error(`the log reports an exit:\n${log}`);
    // The server's startup line, for people: the folder as a path, no Rust values (`Some("…")`).
    const startup = log.split("\n").find((l) => /rustkeep \S+: .*(core|served)/.test(l)) || "";
    if (!startup.includes(`workspace folder ${workspace};`) || /Some\(|\["/.test(startup)) throw new Error(`the log's startup line is not plain words: ${startup}\n${log}`);
    const traces = channelLogs("rustkeep language server trace");
    if (traces.length !== 1) throw new Error(`${traces.length} trace channels after a restart: ${traces.join(", ")}`);
  });
}

main()
  .then(() => {
    const total = (Date.now() - started) / 1000;
    console.log(`vscode-e2e: ${results.length} steps passed in ${total.toFixed(1)} s (screenshots in ${outDir})`);
    fs.rmSync(tmp, { recursive: true, force: true });
    if (total > 90) {
      console.error("vscode-e2e: slower than 90 s");
      process.exit(1);
    }
    process.exit(0);
  })
  .catch((e) => {
    console.error(`vscode-e2e: failed after ${seconds()} s: ${e.stack || e}`);
    console.error(`(the workspace copy and the browser's folders are kept in ${tmp})`);
    process.exit(1);
  });
