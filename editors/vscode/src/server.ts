// Everything the extension decides without a VS Code window: where the `rustkeep` binary is, how
// the language server is started, which files it serves, which ID is under the cursor, and how the
// JSON of `rustkeep check` becomes problems. This module must not import `vscode`, so that
// `node --test` can exercise it directly; file-system and environment access are injected.

import * as path from "path";

/** What the discovery needs from the outside world (injected so that tests can fake it). */
export interface Host {
  platform: NodeJS.Platform;
  env: Record<string, string | undefined>;
  /** True if `p` is an existing regular file (following links). */
  isFile(p: string): boolean;
  homedir(): string;
}

export type ServerSource = "setting" | "bundled" | "workspace" | "path";

export interface ServerBinary {
  command: string;
  source: ServerSource;
}

/** Raised when no binary can be found; the message is what the user sees. */
export class ServerNotFoundError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ServerNotFoundError";
  }
}

export interface FindOptions {
  /** The value of the setting `rustkeep.server.path` (empty or undefined = not set). */
  settingPath?: string;
  /** The folder the extension is installed in (holds `server/` when a binary is bundled). */
  extensionPath: string;
  /** The first workspace folder, for relative setting paths and `${workspaceFolder}`. */
  workspaceFolder?: string;
  /**
   * Every workspace folder (default: `workspaceFolder`), searched for a development build
   * (`target/release/rustkeep`, then `target/debug/rustkeep`) of a checkout of rustkeep.
   */
  workspaceFolders?: string[];
}

/** The name of the setting and where it counts, for messages. */
export const SETTING_HINT =
  "`rustkeep.server.path` is a machine setting: in a remote window (Remote - SSH, WSL, a dev container, " +
  "code-server) only the Remote settings or the workspace settings count, not the local User settings.";

/** Where the releases are: their installers, archives and the extension packages that bundle the binary. */
export const RELEASES_URL = "https://github.com/rustkeep/rustkeep-modkit/releases";

export const INSTALL_HINT =
  "Install rustkeep with `cargo install rustkeep-cli --locked`, or with the installer or archive of a release " +
  `(${RELEASES_URL}), or install the extension package for your platform from there, which bundles it; ` +
  "then run the command \"rustkeep: Restart language server\". Or set `rustkeep.server.path` to the binary.";

function pathApi(platform: NodeJS.Platform): path.PlatformPath {
  return platform === "win32" ? path.win32 : path.posix;
}

function exeName(platform: NodeJS.Platform): string {
  return platform === "win32" ? "rustkeep.exe" : "rustkeep";
}

/** Expands `~` and `${workspaceFolder}` and resolves a relative path against the workspace. */
export function expandSettingPath(raw: string, host: Host, workspaceFolder?: string): string {
  const p = pathApi(host.platform);
  let value = raw.trim();
  if (workspaceFolder !== undefined) {
    value = value.split("${workspaceFolder}").join(workspaceFolder);
  }
  if (value === "~" || value.startsWith("~/") || value.startsWith("~\\")) {
    value = p.join(host.homedir(), value.slice(1));
  }
  if (!p.isAbsolute(value) && workspaceFolder !== undefined) {
    value = p.join(workspaceFolder, value);
  }
  return value;
}

/** The directories of `PATH`, in order, without empty entries. */
export function pathDirectories(host: Host): string[] {
  // Windows spells the variable in any case (`Path`); take whichever exists.
  const key = Object.keys(host.env).find((k) => k.toUpperCase() === "PATH");
  const raw = key === undefined ? "" : host.env[key] ?? "";
  const delimiter = host.platform === "win32" ? ";" : ":";
  return raw
    .split(delimiter)
    .map((d) => d.trim().replace(/^"(.*)"$/, "$1"))
    .filter((d) => d.length > 0);
}

/**
 * Finds the `rustkeep` binary: the setting `rustkeep.server.path` first (an explicit setting that
 * points nowhere is an error, never silently replaced), then the binary bundled inside the extension
 * (`server/rustkeep`), then `rustkeep` on `PATH`.
 */
export function findServer(options: FindOptions, host: Host): ServerBinary {
  const p = pathApi(host.platform);
  const setting = options.settingPath?.trim() ?? "";
  if (setting.length > 0) {
    const command = expandSettingPath(setting, host, options.workspaceFolder);
    if (host.isFile(command)) {
      return { command, source: "setting" };
    }
    throw new ServerNotFoundError(
      `rustkeep: the setting \`rustkeep.server.path\` is "${setting}", but there is no file at ${command}. ` +
        "Fix the setting or clear it to use the bundled binary or `rustkeep` on PATH.",
    );
  }

  const bundled = p.join(options.extensionPath, "server", exeName(host.platform));
  if (host.isFile(bundled)) {
    return { command: bundled, source: "bundled" };
  }

  const builds = developmentBuilds(options, host);
  for (const candidate of builds) {
    if (host.isFile(candidate)) {
      return { command: candidate, source: "workspace" };
    }
  }

  const dirs = pathDirectories(host);
  const names = [exeName(host.platform)];
  if (host.platform === "win32") {
    names.push("rustkeep.cmd", "rustkeep.bat");
  }
  for (const dir of dirs) {
    for (const name of names) {
      const candidate = p.join(dir, name);
      if (host.isFile(candidate)) {
        return { command: candidate, source: "path" };
      }
    }
  }

  const looked = builds.length > 0 ? `, the workspace's builds ${builds.join(", ")} (absent)` : "";
  throw new ServerNotFoundError(
    "rustkeep: no `rustkeep` binary found. Looked at the setting `rustkeep.server.path` (not set), " +
      `the bundled binary ${bundled} (absent)${looked} and ${dirs.length} PATH director${dirs.length === 1 ? "y" : "ies"}` +
      `${dirs.length > 0 ? ` (${dirs.join(host.platform === "win32" ? ";" : ":")})` : ""}. ` +
      `${INSTALL_HINT} ${SETTING_HINT}`,
  );
}

/** `target/release/rustkeep` and `target/debug/rustkeep` of each workspace folder, in that order. */
export function developmentBuilds(options: FindOptions, host: Pick<Host, "platform">): string[] {
  const p = pathApi(host.platform);
  const folders = options.workspaceFolders ?? (options.workspaceFolder !== undefined ? [options.workspaceFolder] : []);
  return folders.flatMap((f) => ["release", "debug"].map((profile) => p.join(f, "target", profile, exeName(host.platform))));
}

/** The shape of `vscode-languageclient`'s `Executable`, without importing it. */
export interface ExecutableSpec {
  command: string;
  args: string[];
  options: { env: Record<string, string | undefined>; cwd?: string };
}

export interface ServerOptionsSpec {
  run: ExecutableSpec;
  debug: ExecutableSpec;
}

/**
 * How the language server is started: `<binary> lsp` over stdio (the client's default transport for
 * an executable), with the user's extra environment on top of the editor's.
 */
export function serverOptions(
  binary: ServerBinary,
  baseEnv: Record<string, string | undefined>,
  extraEnv: Record<string, string> = {},
  cwd?: string,
): ServerOptionsSpec {
  const env = { ...baseEnv, ...extraEnv };
  const run: ExecutableSpec = { command: binary.command, args: ["lsp"], options: { env, cwd } };
  const debug: ExecutableSpec = {
    command: binary.command,
    args: ["lsp"],
    options: { env: { RUST_BACKTRACE: "1", ...env }, cwd },
  };
  return { run, debug };
}

/** A document filter as plain data: `root` becomes a `RelativePattern` in the extension. */
export interface FilterSpec {
  scheme: "file";
  language: "toml";
  root: string;
  glob: string;
}

/**
 * The globs of scenario files, as the server's discovery recognises them (`is_scenario_path` in
 * rustkeep-data): a TOML file directly in a folder named `scenarios`, or any `*.scenario.toml`.
 */
export const SCENARIO_GLOBS = ["**/scenarios/*.toml", "**/*.scenario.toml"];

/**
 * The files the server serves: TOML files in mod folders (folders holding `mod.toml`), the
 * `rustkeep.toml` of a workspace, and the scenario files of each workspace folder. Nested mod
 * folders are covered by their outermost one. Scenario files need filters of their own because
 * they usually lie beside the mods, not in them (`examples/scenarios/` next to
 * `examples/rat_catcher`): the server loads them with the workspace folder, and without a filter
 * the editor never tells it they are open (no diagnostics, no `▶ run` lens, no semantic colours).
 */
export function documentFilters(manifests: string[], host: Pick<Host, "platform">, workspaceFolders: string[] = []): FilterSpec[] {
  const p = pathApi(host.platform);
  const modRoots = new Set<string>();
  const workspaceFiles: string[] = [];
  for (const manifest of manifests) {
    const base = p.basename(manifest);
    if (base === "mod.toml") {
      modRoots.add(p.dirname(manifest));
    } else if (base === "rustkeep.toml") {
      workspaceFiles.push(manifest);
    }
  }
  const roots = [...modRoots].sort();
  const outer = roots.filter((r) => !roots.some((o) => o !== r && isInside(r, o, p)));
  const filters: FilterSpec[] = outer.map((root) => ({ scheme: "file", language: "toml", root, glob: "**/*.toml" }));
  for (const file of workspaceFiles.sort()) {
    const dir = p.dirname(file);
    if (!outer.some((root) => isInside(dir, root, p) || dir === root)) {
      filters.push({ scheme: "file", language: "toml", root: dir, glob: "rustkeep.toml" });
    }
  }
  // Only when there is a mod to serve: a folder without one does not start the server.
  if (filters.length > 0) {
    for (const folder of [...new Set(workspaceFolders)].sort()) {
      if (outer.some((root) => isInside(folder, root, p) || folder === root)) continue;
      for (const glob of SCENARIO_GLOBS) filters.push({ scheme: "file", language: "toml", root: folder, glob });
    }
  }
  return filters;
}

/**
 * A filter as the absolute glob string the language client matches against a document's path:
 * forward slashes (VS Code's glob matcher accepts them for `\` too) and glob characters of the
 * folder name escaped as one-character classes (a lone `]` is literal).
 */
export function filterPattern(f: FilterSpec): string {
  const root = f.root.replace(/\\/g, "/").replace(/[*?{}[]/g, (c) => `[${c}]`);
  return `${root.replace(/\/+$/, "")}/${f.glob}`;
}

function isInside(child: string, parent: string, p: path.PlatformPath): boolean {
  const rel = p.relative(parent, child);
  return rel.length > 0 && !rel.startsWith("..") && !p.isAbsolute(rel);
}

/** The nearest folder at or above `file`'s folder that holds a `mod.toml`, if any. */
export function modRootOf(file: string, host: Host): string | undefined {
  const p = pathApi(host.platform);
  let dir = p.dirname(file);
  for (;;) {
    if (host.isFile(p.join(dir, "mod.toml"))) {
      return dir;
    }
    const parent = p.dirname(dir);
    if (parent === dir) {
      return undefined;
    }
    dir = parent;
  }
}

// The ID grammar of the data language (docs/data-language.md, "IDs and namespaces").
// crates/rustkeep-data/tests/vocabulary.rs keeps both patterns equal to the vocabulary's
// (`vocab::ID_PATTERN`, `vocab::SEGMENT_CHARS`).
const ID = /^[a-z][a-z0-9_]*:[a-z0-9_]+(\/[a-z0-9_]+)*$/;
const ID_CHAR = /[a-z0-9_:/]/;

export function isValidId(s: string): boolean {
  return ID.test(s);
}

/**
 * The ID under the cursor in one line of text (`character` is a UTF-16 offset, as in VS Code), or
 * undefined when the cursor is not on an ID. The cursor may sit right after the ID's last letter.
 */
export function idAtPosition(line: string, character: number): string | undefined {
  let at = Math.min(Math.max(character, 0), line.length);
  if (!(at < line.length && ID_CHAR.test(line[at])) && at > 0 && ID_CHAR.test(line[at - 1])) {
    at -= 1;
  }
  if (at >= line.length || !ID_CHAR.test(line[at])) {
    return undefined;
  }
  let start = at;
  while (start > 0 && ID_CHAR.test(line[start - 1])) start--;
  let end = at;
  while (end < line.length && ID_CHAR.test(line[end])) end++;
  const word = line.slice(start, end).replace(/\/+$/, "");
  return isValidId(word) ? word : undefined;
}

export function checkArgs(): string[] {
  return ["check", "--format", "json", "--no-color"];
}

export function lootArgs(id: string): string[] {
  return ["loot", id, "--format", "human", "--no-color"];
}

export function simulateArgs(scenario: string): string[] {
  return ["simulate", scenario, "--format", "human"];
}

/** One diagnostic of `rustkeep check --format json` (docs/cli.md, `check --format json`). */
export interface CheckPosition {
  line: number;
  column: number;
}
export interface CheckRange {
  start: CheckPosition;
  end: CheckPosition;
}
export interface CheckDiagnostic {
  code: string;
  severity: "error" | "warning" | string;
  message: string;
  file: string;
  range: CheckRange;
  related?: { message: string; file: string; range: CheckRange }[];
  fix?: { message: string; replacement: string };
}
export interface CheckReport {
  diagnostics: CheckDiagnostic[];
  summary: { errors: number; warnings: number; files: number; mods: number };
}

/** Parses the JSON printed by `rustkeep check --format json`; throws with a clear message otherwise. */
export function parseCheckReport(stdout: string): CheckReport {
  let value: unknown;
  try {
    value = JSON.parse(stdout);
  } catch (e) {
    throw new Error(`rustkeep check did not print JSON: ${(e as Error).message}`);
  }
  const report = value as CheckReport;
  if (!report || !Array.isArray(report.diagnostics) || typeof report.summary !== "object") {
    throw new Error("rustkeep check printed JSON without `diagnostics` and `summary`");
  }
  return report;
}

/** The report as text for the output channel: `file:line:column: severity[code]: message`. */
export function formatCheckReport(report: CheckReport, folder: string): string[] {
  const lines = [`rustkeep check in ${folder}`];
  for (const d of report.diagnostics) {
    lines.push(`${d.file}:${d.range.start.line}:${d.range.start.column}: ${d.severity}[${d.code}]: ${d.message}`);
    for (const r of d.related ?? []) {
      lines.push(`    ${r.file}:${r.range.start.line}:${r.range.start.column}: note: ${r.message}`);
    }
    if (d.fix) {
      lines.push(`    fix: ${d.fix.message}`);
    }
  }
  lines.push(checkSummary(report.summary));
  return lines;
}

/** `n` and the word, singular for one, plural otherwise; zero as "no" where `none` says so. */
export function count(n: number, singular: string, plural = `${singular}s`, none = false): string {
  if (n === 0 && none) return `no ${plural}`;
  return `${n} ${n === 1 ? singular : plural}`;
}

/**
 * What a check found, in words: `no errors, 1 warning in 18 files of 2 mods`. The files are
 * those `rustkeep check` reads besides the bundled core (data files, manifests, `rustkeep.toml`
 * and scenario files); the status bar's tooltip counts the same.
 */
export function checkSummary(s: { errors: number; warnings: number; files: number; mods: number }): string {
  return `${count(s.errors, "error", "errors", true)}, ${count(s.warnings, "warning", "warnings", true)} in ${count(s.files, "file")} of ${count(s.mods, "mod")}`;
}

/**
 * Converts a 1-based column counting Unicode scalar values (docs/cli.md) into a 0-based UTF-16
 * offset in `lineText` (what VS Code positions count).
 */
export function scalarColumnToUtf16(lineText: string, column: number): number {
  let offset = 0;
  let scalars = 0;
  while (scalars < column - 1 && offset < lineText.length) {
    const code = lineText.codePointAt(offset) ?? 0;
    offset += code > 0xffff ? 2 : 1;
    scalars++;
  }
  return offset + Math.max(0, column - 1 - scalars);
}

export interface ProblemRange {
  startLine: number;
  startCharacter: number;
  endLine: number;
  endCharacter: number;
}

/** A `check --format json` range as 0-based lines and UTF-16 characters, given the file's text. */
export function toProblemRange(range: CheckRange, text: string): ProblemRange {
  const lines = text.split(/\r?\n/);
  const lineAt = (n: number) => lines[n - 1] ?? "";
  return {
    startLine: range.start.line - 1,
    startCharacter: scalarColumnToUtf16(lineAt(range.start.line), range.start.column),
    endLine: range.end.line - 1,
    endCharacter: scalarColumnToUtf16(lineAt(range.end.line), range.end.column),
  };
}

/** A rule of the manifest's `contributes.tomlValidation`: document URIs → a schema in the package. */
export interface TomlValidationRule {
  regexMatch: string;
  url: string;
}

/**
 * The `evenBetterToml.schema.associations` (document URI regex → schema URL) that point Even Better
 * TOML at the schemas this extension ships. Even Better TOML passes the `url` of a contributed
 * `tomlValidation` rule to Taplo as it is written, so a path relative to the extension reaches no
 * file; the associations setting takes absolute URLs. `extensionUrl` is the extension's folder as a
 * URL (`file:///…/rustkeep.rustkeep-0.1.0`), `installPrefix` the start of the folder name every
 * version of the extension is installed under (`rustkeep.rustkeep-`): entries an older version
 * wrote (a URL into an install folder of this extension) are dropped, every other entry of the user
 * is kept. Returns `undefined` when the setting already says exactly this.
 */
export function schemaAssociations(
  rules: TomlValidationRule[],
  extensionUrl: string,
  installPrefix: string,
  current: Record<string, string>,
): Record<string, string> | undefined {
  const base = extensionUrl.replace(/\/+$/, "");
  const ours: Record<string, string> = {};
  for (const r of rules) {
    if (typeof r?.regexMatch !== "string" || typeof r?.url !== "string") continue;
    ours[r.regexMatch] = `${base}/${r.url.replace(/^\.\//, "")}`;
  }
  const next: Record<string, string> = {};
  for (const [pattern, url] of Object.entries(current)) {
    const written = url.includes(`/${installPrefix}`) && url.includes("/schemas/");
    if (!written && !(pattern in ours)) next[pattern] = url;
  }
  Object.assign(next, ours);
  const same = Object.keys(next).length === Object.keys(current).length && Object.entries(next).every(([k, v]) => current[k] === v);
  return same ? undefined : next;
}

/** What the language server is doing, as the status bar item shows it. */
export type ServerStatus =
  | { kind: "idle" }
  | { kind: "not-found" }
  | { kind: "starting" }
  | { kind: "ready"; mods?: number; files?: number; version?: string }
  | { kind: "crashed" };

export interface StatusText {
  text: string;
  tooltip: string;
  /** Shown as an error (the item's error background). */
  problem: boolean;
}

/**
 * The status bar item of a status (`undefined`: hidden — no mod in the workspace). `mods` and
 * `files` come from the server's `rustkeep/loaded` notification; a click shows the log.
 */
export function statusText(status: ServerStatus): StatusText | undefined {
  switch (status.kind) {
    case "idle":
      return undefined;
    case "not-found":
      return { text: "$(warning) rustkeep: no server", tooltip: "No `rustkeep` binary found (see the log and `rustkeep.server.path`). Click to show the log.", problem: true };
    case "starting":
      return { text: "$(sync~spin) rustkeep", tooltip: "The rustkeep language server is starting and loading the mods. Click to show the log.", problem: false };
    case "crashed":
      return { text: "$(error) rustkeep: stopped", tooltip: "The rustkeep language server stopped unexpectedly. Click to show the log.", problem: true };
    case "ready": {
      const version = status.version === undefined ? "" : ` ${status.version}`;
      if (status.mods === undefined) {
        return { text: "$(check) rustkeep", tooltip: `rustkeep${version} is ready. Click to show the log.`, problem: false };
      }
      // The files as `rustkeep check` counts them ("N files of M mods"), said in full: a bare
      // "data files" read as a different number from the check's for the same folder.
      const files =
        status.files === undefined ? "" : ` and ${count(status.files, "file")} (data files, manifests and scenarios, as \`rustkeep check\` counts them)`;
      return {
        text: `$(check) rustkeep: ${count(status.mods, "mod")}`,
        tooltip: `rustkeep${version} is ready: ${count(status.mods, "mod")}${files} loaded, besides the core. Click to show the log.`,
        problem: false,
      };
    }
  }
}

/**
 * The command of the balance code lenses (creatures, loot tables): a client-side command. The
 * server answers it through `workspace/executeCommand` but does not announce it, so that
 * vscode-languageclient leaves it to the extension, which shows the answer.
 */
export const SHOW_BALANCE = "rustkeep.showBalance";

/** The cursor as the server reads it: the document's URI, a 0-based line and UTF-16 character. */
export interface CursorSpec {
  uri: string;
  line: number;
  character: number;
}

/**
 * The arguments of `rustkeep.showBalance` for the server: a lens's own (`[uri, id]`, or an
 * already built `[{ uri, position }]`) as they are, else the entry at the cursor
 * (`[{ uri, position }]`); `undefined` without either. Anything else VS Code may pass (a `Uri`
 * from a menu) counts as no arguments.
 */
export function balanceArguments(args: unknown[], cursor: CursorSpec | undefined): unknown[] | undefined {
  const first = args[0];
  const isAt = (v: unknown) => typeof v === "object" && v !== null && typeof (v as { uri?: unknown }).uri === "string" && "position" in v;
  if (typeof first === "string" || isAt(first)) {
    return args;
  }
  if (cursor === undefined) {
    return undefined;
  }
  return [{ uri: cursor.uri, position: { line: cursor.line, character: cursor.character } }];
}

/** The server's answer to `rustkeep.showBalance`. */
export interface BalanceReport {
  title: string;
  markdown: string;
}

/** Checks the server's answer to `rustkeep.showBalance`; throws with a clear message otherwise. */
export function parseBalanceReport(result: unknown): BalanceReport {
  const r = result as { title?: unknown; markdown?: unknown } | null | undefined;
  if (typeof r !== "object" || r === null || typeof r.markdown !== "string") {
    throw new Error(`the server's answer to ${SHOW_BALANCE} has no report (no \`markdown\`)`);
  }
  return { title: typeof r.title === "string" && r.title.trim().length > 0 ? r.title : "Balance", markdown: r.markdown };
}

/**
 * The scheme of the read-only documents the balance reports are shown from: a
 * `TextDocumentContentProvider` of the extension serves them, so they are never dirty and closing
 * one asks nothing (an untitled document asked whether to save).
 */
export const BALANCE_SCHEME = "rustkeep-balance";

/**
 * The path of a report's document: the title as the file name (the preview's tab reads "Preview
 * Balance of core:rat.md"), with `.md` so that VS Code takes it for Markdown. A `/` of an ID
 * (`m:floors/floor_3`) would start a folder and leave only its tail in the tab: it becomes `∕`
 * (division slash), as do `\` and control characters, which have no place in a name.
 */
export function balancePath(report: BalanceReport): string {
  const name = report.title.replace(/[/\\]/g, "\u2215").replace(/[\u0000-\u001f\u007f]/g, " ").trim();
  return `/${name.length > 0 ? name : "Balance"}.md`;
}

/**
 * The text of the document that shows a report: its markdown, under the report's title as a
 * heading unless the markdown starts with a heading of its own (an untitled document has no name).
 */
export function balanceDocument(report: BalanceReport): string {
  if (/^\s*#/.test(report.markdown)) {
    return report.markdown;
  }
  return `# ${report.title}\n\n${report.markdown}`;
}
