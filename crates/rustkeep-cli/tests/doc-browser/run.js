// The end-to-end test of the static site `rustkeep doc` writes, in a real browser: Debian's
// Chromium driven by puppeteer-core, the pages opened from file:// as a reader opens them.
//
// It checks that no page logs an error or throws, that no page requests anything beyond file:
// (the site works offline), that a sample of the internal links reach their page and fragment,
// that the search box (focused with `/`) finds an ID and Enter opens its entry, that the drop
// chart of core:floor_3_table is drawn with one bar per row of its table, that the colours follow
// the reader's light or dark preference, and that axe-core finds no serious or critical
// accessibility violation on the main kinds of page, light and dark. It leaves screenshots at
// desktop and phone width.
//
// usage: node run.js --site DIR --out DIR [--chromium PATH]
// Progress goes to stderr; stdout gets one JSON object at the end:
//   {"ok", "failures", "notes", "pages_visited", "floor_3_table": [{"id", "p_any", "expected",
//    "shown"}], "screenshots", "seconds"}
// where p_any and expected are the rows' data attributes as written (exact decimal text), shown
// is the text of the chance cell, and notes are findings that fail nothing (axe violations of
// moderate or minor impact, a page wider than a phone). Exit code 1 on any failure, 0 otherwise.
// crates/rustkeep-cli/tests/doc_browser.rs builds the site, runs this script and compares the
// rows with `rustkeep loot core:floor_3_table --format json`.

"use strict";

const fs = require("fs");
const os = require("os");
const path = require("path");
const { parseArgs } = require("util");
const { pathToFileURL, fileURLToPath } = require("url");

const started = Date.now();
const seconds = () => ((Date.now() - started) / 1000).toFixed(1);
const log = (line) => process.stderr.write(`doc-browser: ${line} (at ${seconds()} s)\n`);

// `--name VALUE` options; anything else is refused.
const { values: opt } = parseArgs({ options: { site: { type: "string" }, out: { type: "string" }, chromium: { type: "string" } } });
if (!opt.site || !opt.out) {
  process.stderr.write("usage: node run.js --site DIR --out DIR [--chromium PATH]\n");
  process.exit(2);
}
const site = path.resolve(opt.site);
const outDir = path.resolve(opt.out);
// Debian's Chromium: --chromium, else RUSTKEEP_CHROMIUM, else `chromium` on the PATH.
const onPath = (name) =>
  (process.env.PATH || "")
    .split(path.delimiter)
    .map((dir) => path.join(dir, name))
    .find((file) => fs.existsSync(file));
const chromium = opt.chromium || process.env.RUSTKEEP_CHROMIUM || onPath("chromium") || "/usr/bin/chromium";
const axePath = require.resolve("axe-core/axe.min.js");

// Desktop and phone, as the screenshots show them.
const DESKTOP = { width: 1280, height: 900, deviceScaleFactor: 1, isMobile: false, hasTouch: false };
const PHONE = { width: 390, height: 844, deviceScaleFactor: 2, isMobile: true, hasTouch: true };
// The tallest full-page screenshot, in CSS pixels (the long pages run to tens of thousands).
const MAX_SHOT_HEIGHT = { desktop: 3600, phone: 2400 };
// How many distinct pages the link check opens.
const LINK_SAMPLE = 15;
// The pages axe-core checks, light and dark.
const AXE_PAGES = [
  "index.html",
  "diagnostics.html",
  "mods/core/index.html",
  "mods/core/items.html",
  "mods/core/loot_tables.html",
  "mods/fire_and_thorns/index.html",
];
const TABLE = "core:floor_3_table";

const failures = [];
const notes = [];
const screenshots = [];
let pagesVisited = 0;
let floor3 = [];

// Each failure once: the same page is opened several times.
const fail = (what) => {
  if (failures.includes(what)) return;
  failures.push(what);
  log(`FAIL ${what}`);
};
const local = (url) => ["file:", "data:", "about:"].includes(new URL(url).protocol);

/** A page of the site (a `/`-separated path below it, with an optional #fragment) as a URL. */
function siteUrl(rel) {
  const [file, fragment] = rel.split("#");
  const url = pathToFileURL(path.join(site, file)).href;
  return fragment === undefined ? url : `${url}#${fragment}`;
}

/** A file: URL of the site as a path below it, for messages. */
function shown(url) {
  try {
    const u = new URL(url);
    if (u.protocol !== "file:") return url;
    const rel = path.relative(site, fileURLToPath(u));
    return rel.split(path.sep).join("/") + u.hash;
  } catch {
    return url;
  }
}

/** A new tab that turns every console error, uncaught exception, failed load and request off the machine into a failure. */
async function newPage(browser, viewport, scheme) {
  const page = await browser.newPage();
  page.setDefaultTimeout(15000);
  page.setDefaultNavigationTimeout(15000);
  await page.setViewport(viewport);
  await page.emulateMediaFeatures([{ name: "prefers-color-scheme", value: scheme }]);
  page.on("console", (msg) => {
    if (msg.type() === "error") {
      const at = msg.location()?.url ? ` (${shown(msg.location().url)}${msg.location().lineNumber !== undefined ? `:${msg.location().lineNumber + 1}` : ""})` : "";
      fail(`console error on ${shown(page.url())}: ${msg.text()}${at}`);
    }
  });
  page.on("pageerror", (err) => fail(`uncaught exception on ${shown(page.url())}: ${err.message || err}`));
  // A request off the machine fails the test and is blocked, so the run never waits on a network.
  await page.setRequestInterception(true);
  page.on("request", (req) => {
    if (local(req.url())) {
      req.continue();
    } else {
      fail(`request off the machine from ${shown(page.url())}: ${req.method()} ${req.url()}`);
      req.abort("blockedbyclient");
    }
  });
  page.on("requestfailed", (req) => {
    // A load cut short by the next navigation is the test's doing, not the site's; a blocked
    // request is reported above.
    if (req.failure()?.errorText === "net::ERR_ABORTED" || !local(req.url())) return;
    fail(`failed to load ${shown(req.url())} on ${shown(page.url())}: ${req.failure()?.errorText}`);
  });
  return page;
}

async function open(page, rel) {
  await page.goto(siteUrl(rel), { waitUntil: "load" });
  pagesVisited += 1;
}

/** Every link's target on the open page, resolved (HTML and SVG `a` elements alike). */
function linksOf(page) {
  return page.evaluate(() =>
    Array.from(document.querySelectorAll("a[href]"), (a) => new URL(a.getAttribute("href"), document.baseURI).href),
  );
}

/** The element a fragment names (its id, percent-decoded), if any. */
function hasFragment(page, fragment) {
  return page.evaluate((f) => document.getElementById(decodeURIComponent(f)) !== null, fragment);
}

/** Relative luminance (WCAG 2) of a computed CSS colour `rgb(r, g, b)` or `rgba(...)`. */
function luminance(css) {
  const m = css.match(/rgba?\(\s*([\d.]+)[ ,]+([\d.]+)[ ,]+([\d.]+)/);
  if (!m) throw new Error(`not an rgb colour: ${css}`);
  const [r, g, b] = m.slice(1, 4).map((c) => {
    const s = Number(c) / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** A screenshot into the out folder: the whole page down to a height cap, or the viewport. */
async function shot(page, name, kind, whole) {
  const file = path.join(outDir, `${name}.png`);
  if (whole) {
    const { width, height } = await page.evaluate(() => ({
      width: document.documentElement.clientWidth,
      height: document.documentElement.scrollHeight,
    }));
    await page.screenshot({
      path: file,
      clip: { x: 0, y: 0, width, height: Math.min(height, MAX_SHOT_HEIGHT[kind]) },
      captureBeyondViewport: true,
    });
  } else {
    await page.screenshot({ path: file });
  }
  screenshots.push(path.relative(outDir, file));
}

// --- the checks ---

async function checkLinks(browser) {
  const page = await newPage(browser, DESKTOP, "light");
  const links = [];
  for (const from of ["index.html", "mods/core/index.html"]) {
    await open(page, from);
    for (const href of await linksOf(page)) links.push({ from, href });
  }
  // Every link stays in the site and names a file that exists; the external ones are noted.
  const byPage = new Map();
  for (const { from, href } of links) {
    const u = new URL(href);
    if (u.protocol !== "file:") {
      notes.push(`${from} links off the site: ${href}`);
      continue;
    }
    const file = fileURLToPath(u);
    if (path.relative(site, file).startsWith("..")) {
      fail(`${from} links outside the site: ${href}`);
      continue;
    }
    if (!fs.existsSync(file)) {
      fail(`${from} links to a missing file: ${shown(href)}`);
      continue;
    }
    const key = `file://${u.pathname}`;
    if (!byPage.has(key)) byPage.set(key, new Map());
    // Each fragment with the first page that links to it.
    const fragment = u.hash.slice(1);
    if (!byPage.get(key).has(fragment)) byPage.get(key).set(fragment, from);
  }
  // A deterministic sample: the distinct pages in path order, evenly spaced.
  const pages = [...byPage.keys()].sort();
  const take = Math.min(LINK_SAMPLE, pages.length);
  const sample = [...new Set(Array.from({ length: take }, (_, i) => pages[Math.floor((i * pages.length) / take)]))];
  log(`links: ${links.length} on the two pages, ${pages.length} distinct pages, opening ${sample.length}`);
  for (const url of sample) {
    const fragments = byPage.get(url);
    // Opened at its first fragment (the browser scrolls to it), as a reader following the link.
    const first = [...fragments.keys()].find((f) => f !== "");
    await page.goto(first ? `${url}#${first}` : url, { waitUntil: "load" });
    pagesVisited += 1;
    for (const [f, from] of fragments) {
      if (f !== "" && !(await hasFragment(page, f))) fail(`${from} links to ${shown(url)}#${f}, which names no element there`);
    }
  }
  await page.close();
}

/** Types `query` into the search box of `rel` (focused by `/`), presses Enter and checks where it lands. */
async function checkSearch(browser, rel, query, expectedEnd) {
  const page = await newPage(browser, DESKTOP, "light");
  await open(page, rel);
  const slash = await page.evaluate(() => document.activeElement === document.body);
  if (!slash) fail(`search on ${rel}: the body does not have the focus after loading`);
  await page.keyboard.press("/");
  const focused = await page.evaluate(() => ({ id: document.activeElement?.id, value: document.getElementById("search")?.value }));
  if (focused.id !== "search") {
    fail(`search on ${rel}: pressing / on the page focuses ${focused.id ? `#${focused.id}` : "no box"}, not #search`);
    await page.focus("#search");
  } else if (focused.value !== "") {
    fail(`search on ${rel}: pressing / typed ${JSON.stringify(focused.value)} into the box`);
  }
  await page.keyboard.type(query);
  try {
    await page.waitForSelector("#search-results li", { visible: true, timeout: 5000 });
  } catch {
    const status = await page.evaluate(() => document.getElementById("search-status")?.textContent);
    fail(`search on ${rel}: no result appears for ${JSON.stringify(query)} (status: ${JSON.stringify(status)})`);
    await page.close();
    return;
  }
  const first = await page.$eval("#search-results li", (li) => li.textContent);
  if (!first.includes(query)) fail(`search on ${rel}: the first result for ${JSON.stringify(query)} is ${JSON.stringify(first)}`);
  // The open list of results is part of the page a screen reader meets.
  if (rel === "index.html") await axeCheck(page, `${rel} with the search results open`);
  await Promise.all([page.waitForNavigation({ waitUntil: "load" }), page.keyboard.press("Enter")]);
  pagesVisited += 1;
  // Two frames: the scroll to the fragment is done by then.
  const where = await page.evaluate(
    (id) =>
      new Promise((done) =>
        requestAnimationFrame(() =>
          requestAnimationFrame(() => {
            const el = document.getElementById(id);
            const r = el?.getBoundingClientRect();
            done({
              href: location.href,
              exists: !!el,
              inView: !!r && r.bottom > 0 && r.top < innerHeight && r.right > 0 && r.left < innerWidth,
              top: r?.top,
            });
          }),
        ),
      ),
    query,
  );
  if (!decodeURI(where.href).endsWith(expectedEnd)) fail(`search on ${rel}: Enter on ${query} opens ${shown(where.href)}, not …${expectedEnd}`);
  if (!where.exists) fail(`search on ${rel}: ${shown(where.href)} has no element with the id ${query}`);
  else if (!where.inView) fail(`search on ${rel}: the entry ${query} is not in the viewport (its top at ${where.top} px)`);
  await page.close();
}

async function checkDropChart(browser) {
  const page = await newPage(browser, DESKTOP, "light");
  await open(page, `mods/core/loot_tables.html#${TABLE}`);
  const got = await page.evaluate((table) => {
    const entry = document.getElementById(table);
    if (!entry) return { error: `no element with the id ${table}` };
    const drops = Array.from(document.querySelectorAll("table.drops")).find((t) => t.getAttribute("data-table") === table);
    if (!drops) return { error: `no table.drops[data-table="${table}"]` };
    if (!entry.contains(drops)) return { error: `table.drops[data-table="${table}"] is outside the entry #${table}` };
    const rows = Array.from(drops.querySelectorAll("tbody tr"), (tr) => ({
      id: tr.getAttribute("data-id"),
      p_any: tr.getAttribute("data-p-any"),
      expected: tr.getAttribute("data-expected"),
      shown: tr.cells[1]?.textContent ?? null,
    }));
    const svg = entry.querySelector("figure.chart svg");
    if (!svg) return { rows, error: `the entry #${table} has no figure.chart svg` };
    const r = svg.getBoundingClientRect();
    return { rows, width: r.width, height: r.height, bars: svg.querySelectorAll("rect.bar").length };
  }, TABLE);
  floor3 = got.rows || [];
  if (got.error) fail(`drop chart of ${TABLE}: ${got.error}`);
  if (!got.error) {
    if (!(got.width > 0 && got.height > 0)) fail(`drop chart of ${TABLE}: the svg is drawn at ${got.width}×${got.height} px`);
    if (got.bars !== floor3.length) fail(`drop chart of ${TABLE}: ${got.bars} rect.bar for ${floor3.length} rows of its table`);
  }
  if (floor3.length === 0) fail(`drop chart of ${TABLE}: its table has no rows`);
  for (const row of floor3) {
    for (const k of ["id", "p_any", "expected", "shown"]) {
      if (row[k] === null || row[k] === "") fail(`drop chart of ${TABLE}: a row without ${k}: ${JSON.stringify(row)}`);
    }
  }
  log(`drop chart: ${floor3.length} rows, ${got.bars} bars, ${got.width}×${got.height} px`);
  await page.close();
}

async function checkColours(browser) {
  for (const scheme of ["light", "dark"]) {
    const page = await newPage(browser, DESKTOP, scheme);
    for (const rel of ["index.html", "mods/core/items.html"]) {
      await open(page, rel);
      const { bg, fg } = await page.evaluate(() => {
        const s = getComputedStyle(document.body);
        return { bg: s.backgroundColor, fg: s.color };
      });
      const [lb, lf] = [luminance(bg), luminance(fg)];
      const good = scheme === "dark" ? lb < 0.2 && lf > 0.4 : lb > 0.4 && lf < 0.2;
      if (!good) fail(`${scheme} mode on ${rel}: body background ${bg} (luminance ${lb.toFixed(3)}), text ${fg} (luminance ${lf.toFixed(3)})`);
    }
    await page.close();
  }
}

async function takeScreenshots(browser) {
  const views = [
    ["desktop", "light", DESKTOP],
    ["desktop", "dark", DESKTOP],
    ["phone", "light", PHONE],
  ];
  for (const [kind, scheme, viewport] of views) {
    const page = await newPage(browser, viewport, scheme);
    for (const [rel, name, whole] of [
      ["index.html", "index", true],
      [`mods/core/loot_tables.html#${TABLE}`, "loot-floor-3-table", false],
      ["mods/core/index.html", "core", true],
    ]) {
      await open(page, rel);
      await shot(page, `${name}-${kind}-${scheme}`, kind, whole);
      if (kind === "phone") {
        // The page itself must not scroll sideways (wide tables and charts scroll in their box).
        const w = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
        if (w.scroll > w.client + 1) notes.push(`${rel} at phone width scrolls sideways: ${w.scroll} px wide in a ${w.client} px viewport`);
      }
    }
    await page.close();
  }
}

// Runs axe-core in the page as it is now; a serious or critical violation fails, the others are
// noted. Returns the violations.
async function axeCheck(page, what) {
  await page.addScriptTag({ path: axePath });
  const violations = await page.evaluate(async () => {
    // No preload: axe would fetch the stylesheets with XMLHttpRequest, which a file:// page
    // may not (a console error that is axe's, not the site's).
    const r = await window.axe.run(document, { resultTypes: ["violations"], preload: false });
    return r.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      count: v.nodes.length,
      targets: v.nodes.slice(0, 3).map((n) => n.target.join(" ")),
    }));
  });
  for (const v of violations) {
    const text = `axe ${v.impact} ${v.id} on ${what}: ${v.help}; ${v.count} element${v.count === 1 ? "" : "s"}, e.g. ${v.targets.join(" | ")}`;
    if (v.impact === "serious" || v.impact === "critical") fail(text);
    else notes.push(text);
  }
  return violations;
}

async function checkAccessibility(browser) {
  for (const scheme of ["light", "dark"]) {
    const page = await newPage(browser, DESKTOP, scheme);
    for (const rel of AXE_PAGES) {
      const t0 = Date.now();
      await open(page, rel);
      const t1 = Date.now();
      const violations = await axeCheck(page, `${rel} (${scheme})`);
      log(`axe: ${rel} (${scheme}): ${violations.length} violation${violations.length === 1 ? "" : "s"} (load ${t1 - t0} ms, axe ${Date.now() - t1} ms)`);
    }
    await page.close();
  }
}

async function main() {
  if (!fs.existsSync(path.join(site, "index.html"))) throw new Error(`--site: no index.html in ${site}`);
  if (!fs.existsSync(chromium)) throw new Error(`Chromium is missing at ${chromium} (apt-get install chromium)`);
  const puppeteer = require("puppeteer-core");
  // The screenshots of an earlier run go; nothing else in the folder is touched.
  fs.mkdirSync(outDir, { recursive: true });
  for (const f of fs.readdirSync(outDir)) if (f.endsWith(".png")) fs.rmSync(path.join(outDir, f));
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), "rustkeep-doc-browser-"));
  const browser = await puppeteer.launch({
    executablePath: chromium,
    headless: true,
    defaultViewport: DESKTOP,
    args: [
      // Needed when running as root (CI containers); the pages are the project's own.
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--disable-dev-shm-usage",
      `--user-data-dir=${profile}`,
    ],
  });
  try {
    const steps = [
      ["links", () => checkLinks(browser)],
      ["search from the index", () => checkSearch(browser, "index.html", "core:flaming", "mods/core/affixes.html#core:flaming")],
      ["search from a mod's page", () => checkSearch(browser, "mods/rat_catcher/index.html", "core:flaming", "mods/core/affixes.html#core:flaming")],
      ["drop chart", () => checkDropChart(browser)],
      ["colours", () => checkColours(browser)],
      ["screenshots", () => takeScreenshots(browser)],
      ["accessibility", () => checkAccessibility(browser)],
    ];
    for (const [name, step] of steps) {
      try {
        await step();
        log(`done: ${name}`);
      } catch (e) {
        fail(`${name}: ${e.message}`);
      }
    }
  } finally {
    await browser.close();
    fs.rmSync(profile, { recursive: true, force: true });
  }
}

function finish() {
  const summary = {
    ok: failures.length === 0,
    failures,
    notes,
    pages_visited: pagesVisited,
    floor_3_table: floor3.map(({ id, p_any, expected, shown }) => ({ id, p_any, expected, shown })),
    screenshots,
    seconds: Number(seconds()),
  };
  process.stdout.write(JSON.stringify(summary, null, 2) + "\n");
  process.exit(summary.ok ? 0 : 1);
}

// The whole run takes well under a minute; a hang is a failure, not a stuck CI job.
const watchdog = setTimeout(() => {
  fail("the run took longer than 120 s");
  finish();
}, 120000);

main()
  .catch((e) => fail(e.message))
  .finally(() => {
    clearTimeout(watchdog);
    finish();
  });
