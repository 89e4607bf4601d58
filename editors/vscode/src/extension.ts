// The VS Code side: starts `rustkeep lsp` through vscode-languageclient, adds three commands
// that run the CLI (check, loot, simulate) and shows the server's balance reports (the command
// of the balance code lenses). Every decision that does not need VS Code lives in `server.ts`,
// which is tested without an editor.

import { ChildProcess, execFile, spawn } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import * as vscode from "vscode";
import { ExecuteCommandRequest, LanguageClient, LanguageClientOptions, ServerOptions, State } from "vscode-languageclient/node";
import * as server from "./server";

const nodeHost: server.Host = {
  platform: process.platform,
  env: process.env,
  isFile(p: string): boolean {
    try {
      return fs.statSync(p).isFile();
    } catch {
      return false;
    }
  },
  homedir: () => os.homedir(),
};

let client: LanguageClient | undefined;
let output: vscode.OutputChannel;
/** One trace channel for the life of the extension: every restart's client writes into it. */
let trace: vscode.OutputChannel;
let statusItem: vscode.StatusBarItem;
/**
 * The clients the extension itself stopped or is stopping (a restart, deactivation): their
 * server's exit and their stopped state are no crash. Kept per client, never as one flag: a
 * server may exit after its stop resolved, or while the next client starts.
 */
const retired = new WeakSet<LanguageClient>();
/**
 * Every start and stop of the server, one after the other. A restart can be asked for by the
 * command, a settings change, a mod folder created or deleted and a TOML file opened from
 * outside the served folders, also while a start is still finding the workspace's manifests:
 * run side by side, two starts left one client running unseen and a stop hit a client that was
 * still starting.
 */
let lifecycle: Promise<void> = Promise.resolve();

function queued(op: () => Promise<void>): Promise<void> {
  const next = lifecycle.then(op, op);
  lifecycle = next.catch((e) => output.appendLine(`rustkeep: ${(e as Error).message}`));
  return next;
}
let currentStatus: server.ServerStatus = { kind: "idle" };
let checkProblems: vscode.DiagnosticCollection;
/** The folders whose TOML files the running server serves. */
let servedRoots: string[] = [];

function config() {
  return vscode.workspace.getConfiguration("rustkeep");
}

function firstFolder(): string | undefined {
  return vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
}

/** The binary, or undefined after telling the user why there is none. */
function resolveBinary(context: vscode.ExtensionContext): server.ServerBinary | undefined {
  try {
    return server.findServer(
      {
        settingPath: config().get<string>("server.path"),
        extensionPath: context.extensionPath,
        workspaceFolder: firstFolder(),
        workspaceFolders: (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath),
      },
      nodeHost,
    );
  } catch (e) {
    const message = e instanceof server.ServerNotFoundError ? e.message : String(e);
    output.appendLine(message);
    setStatus({ kind: "not-found" });
    void vscode.window.showErrorMessage(message, "Open settings").then((choice) => {
      if (choice === "Open settings") {
        void vscode.commands.executeCommand("workbench.action.openSettings", "rustkeep.server.path");
      }
    });
    return undefined;
  }
}

/**
 * The bundled binary is packaged executable and VS Code keeps the mode when it installs the
 * extension; an extension folder copied by other means may have lost it.
 */
function ensureExecutable(file: string): void {
  if (process.platform === "win32") return;
  try {
    const mode = fs.statSync(file).mode;
    if ((mode & 0o111) === 0) fs.chmodSync(file, mode | 0o755);
  } catch (e) {
    output.appendLine(`rustkeep: cannot make ${file} executable: ${(e as Error).message}`);
  }
}

async function manifests(): Promise<string[]> {
  const found = await vscode.workspace.findFiles("**/{mod,rustkeep}.toml", "**/{node_modules,target,.git}/**");
  return found.map((u) => u.fsPath);
}

async function startClient(context: vscode.ExtensionContext): Promise<void> {
  const files = await manifests();
  // A TOML file opened from a mod outside the workspace brings its own mod folder.
  for (const doc of vscode.workspace.textDocuments) {
    if (doc.uri.scheme === "file" && doc.languageId === "toml") {
      const root = server.modRootOf(doc.uri.fsPath, nodeHost);
      if (root !== undefined) files.push(path.join(root, "mod.toml"));
    }
  }
  const filters = server.documentFilters(
    files,
    nodeHost,
    (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === "file").map((f) => f.uri.fsPath),
  );
  servedRoots = filters.map((f) => f.root);
  if (filters.length === 0) {
    output.appendLine("rustkeep: no mod.toml or rustkeep.toml in the workspace; the language server waits for one.");
    setStatus({ kind: "idle" });
    return;
  }
  const binary = resolveBinary(context);
  if (binary === undefined) return;
  if (binary.source === "bundled") ensureExecutable(binary.command);
  output.appendLine(`rustkeep: starting ${binary.command} lsp (found via ${binary.source})`);

  const spec = server.serverOptions(binary, process.env, config().get<Record<string, string>>("server.extraEnv") ?? {}, firstFolder());
  // The extension spawns the process itself (rather than handing the client an executable) so
  // that it alone judges an exit: the client would log every exit as an error, also the code 0
  // of a stop the extension asked for. An exit nobody asked for is reported here, and the client
  // sees its connection close and restarts the server as usual.
  const spawnServer: ServerOptions = async (): Promise<ChildProcess> => {
    const child = spawn(spec.run.command, spec.run.args, { env: spec.run.options.env, cwd: spec.run.options.cwd });
    await new Promise<void>((resolve, reject) => {
      child.once("spawn", () => resolve());
      child.once("error", reject);
    });
    child.on("exit", (code, signal) => {
      const asked = retired.has(started);
      if (asked && code === 0) return;
      output.appendLine(`rustkeep: the language server exited (${signal ?? `code ${code}`})${asked ? " while stopping" : ""}.`);
    });
    return child;
  };
  const clientOptions: LanguageClientOptions = {
    documentSelector: filters.map((f) => ({
      scheme: f.scheme,
      language: f.language,
      pattern: server.filterPattern(f),
    })),
    outputChannel: output,
    traceOutputChannel: trace,
  };
  const started = new LanguageClient("rustkeep", "rustkeep language server", spawnServer, clientOptions);
  client = started;
  setStatus({ kind: "starting" });
  started.onDidChangeState((e) => {
    if (client !== started) return;
    if (e.newState === State.Starting) setStatus({ kind: "starting" });
    if (e.newState === State.Stopped && !retired.has(started)) setStatus({ kind: "crashed" });
  });
  started.onNotification("rustkeep/loaded", (params: { mods?: unknown; files?: unknown }) => {
    if (client !== started) return;
    const count = (v: unknown) => (typeof v === "number" && Number.isInteger(v) && v >= 0 ? v : undefined);
    setStatus({ kind: "ready", mods: count(params?.mods), files: count(params?.files), version: started.initializeResult?.serverInfo?.version });
  });
  try {
    await started.start();
    // A server that does not send `rustkeep/loaded` (an older one) is ready once it answered.
    if (client === started && currentStatus.kind === "starting") {
      setStatus({ kind: "ready", version: started.initializeResult?.serverInfo?.version });
    }
  } catch (e) {
    const message = `rustkeep: the language server did not start: ${(e as Error).message}`;
    output.appendLine(message);
    setStatus({ kind: "crashed" });
    void vscode.window.showErrorMessage(message, "Show log").then((choice) => {
      if (choice === "Show log") output.show(true);
    });
    if (client === started) client = undefined;
  }
}

/**
 * Stops the running client, if any, as a requested stop (no crash status, no error logged).
 * Only ever called through `queued`, so no start of the extension's is under way: the client
 * runs, has stopped after a crash, or restarts its crashed server by itself.
 */
async function stopClient(): Promise<void> {
  const old = client;
  client = undefined;
  if (old === undefined) return;
  retired.add(old);
  // A client restarting its crashed server by itself is stopped once it is up again (a client
  // still starting cannot be stopped).
  if (old.state === State.Starting) await old.start().catch(() => undefined);
  if (old.state !== State.Running) return;
  // `dispose` stops the client for good; the client ends its own server process when the exit
  // does not come.
  await old.dispose().catch((e) => output.appendLine(`rustkeep: stopping the language server: ${(e as Error).message}`));
}

function restartClient(context: vscode.ExtensionContext): Promise<void> {
  return queued(async () => {
    await stopClient();
    await startClient(context);
  });
}

function setStatus(status: server.ServerStatus): void {
  currentStatus = status;
  const shown = server.statusText(status);
  if (shown === undefined) {
    statusItem.hide();
    return;
  }
  statusItem.text = shown.text;
  statusItem.tooltip = shown.tooltip;
  statusItem.backgroundColor = shown.problem ? new vscode.ThemeColor("statusBarItem.errorBackground") : undefined;
  statusItem.command = "rustkeep.showLog";
  statusItem.show();
}

interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

function run(binary: string, args: string[], cwd: string | undefined): Promise<RunResult> {
  const env = { ...process.env, ...(config().get<Record<string, string>>("server.extraEnv") ?? {}) };
  return new Promise((resolve) => {
    execFile(binary, args, { cwd, env, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === "number" ? error.code : 2;
      resolve({ code, stdout: stdout.toString(), stderr: stderr.toString() });
    });
  });
}

/** Runs `rustkeep check --format json` in every workspace folder; results go to the output channel,
 * and to the Problems panel when the language server is not running (it publishes the same set). */
async function checkWorkspace(context: vscode.ExtensionContext): Promise<void> {
  const binary = resolveBinary(context);
  if (binary === undefined) return;
  if (binary.source === "bundled") ensureExecutable(binary.command);
  const folders = vscode.workspace.workspaceFolders ?? [];
  if (folders.length === 0) {
    void vscode.window.showWarningMessage("rustkeep: open a folder holding a mod first.");
    return;
  }
  output.show(true);
  checkProblems.clear();
  const byFile = new Map<string, vscode.Diagnostic[]>();
  const total = { errors: 0, warnings: 0, files: 0, mods: 0 };
  for (const folder of folders) {
    const cwd = folder.uri.fsPath;
    const result = await run(binary.command, server.checkArgs(), cwd);
    if (result.code === 2) {
      output.appendLine(`rustkeep check failed in ${cwd}:\n${result.stderr}`);
      continue;
    }
    let report: server.CheckReport;
    try {
      report = server.parseCheckReport(result.stdout);
    } catch (e) {
      output.appendLine(`${(e as Error).message}\n${result.stderr}`);
      continue;
    }
    for (const line of server.formatCheckReport(report, cwd)) output.appendLine(line);
    for (const k of ["errors", "warnings", "files", "mods"] as const) total[k] += report.summary[k];
    for (const d of report.diagnostics) {
      const file = path.resolve(cwd, d.file);
      let text = "";
      try {
        text = fs.readFileSync(file, "utf8");
      } catch {
        // A diagnostic on a file that vanished still gets a place, at its line.
      }
      const r = server.toProblemRange(d.range, text);
      const diagnostic = new vscode.Diagnostic(
        new vscode.Range(r.startLine, r.startCharacter, r.endLine, r.endCharacter),
        d.message,
        d.severity === "error" ? vscode.DiagnosticSeverity.Error : vscode.DiagnosticSeverity.Warning,
      );
      diagnostic.code = d.code;
      diagnostic.source = "rustkeep check";
      const list = byFile.get(file) ?? [];
      list.push(diagnostic);
      byFile.set(file, list);
    }
  }
  if (client === undefined || !client.isRunning()) {
    for (const [file, list] of byFile) checkProblems.set(vscode.Uri.file(file), list);
  }
  void vscode.window.showInformationMessage(`rustkeep check: ${server.checkSummary(total)}`);
}

function folderOf(uri: vscode.Uri): string | undefined {
  return vscode.workspace.getWorkspaceFolder(uri)?.uri.fsPath ?? server.modRootOf(uri.fsPath, nodeHost) ?? firstFolder();
}

async function lootUnderCursor(context: vscode.ExtensionContext): Promise<void> {
  const editor = vscode.window.activeTextEditor;
  if (editor === undefined) return;
  const pos = editor.selection.active;
  let id = server.idAtPosition(editor.document.lineAt(pos.line).text, pos.character);
  if (id === undefined) {
    id = await vscode.window.showInputBox({ prompt: "Loot table ID", placeHolder: "core:floor_3_table" });
    if (!id) return;
  }
  const binary = resolveBinary(context);
  if (binary === undefined) return;
  if (binary.source === "bundled") ensureExecutable(binary.command);
  const result = await run(binary.command, server.lootArgs(id), folderOf(editor.document.uri));
  showResult(`rustkeep loot ${id}`, result);
}

async function simulateScenario(context: vscode.ExtensionContext): Promise<void> {
  const editor = vscode.window.activeTextEditor;
  let file = editor?.document.uri.scheme === "file" ? editor.document.uri.fsPath : undefined;
  if (file === undefined) {
    const picked = await vscode.window.showOpenDialog({ filters: { Scenario: ["toml"] }, canSelectMany: false });
    file = picked?.[0]?.fsPath;
    if (file === undefined) return;
  } else if (editor?.document.isDirty) {
    await editor.document.save();
  }
  const binary = resolveBinary(context);
  if (binary === undefined) return;
  if (binary.source === "bundled") ensureExecutable(binary.command);
  const result = await run(binary.command, server.simulateArgs(file), path.dirname(file));
  showResult(`rustkeep simulate ${path.basename(file)}`, result);
}

/**
 * The balance reports, as read-only documents of the `rustkeep-balance:` scheme: their text by
 * URI. A report shown again (the same entry) replaces its text and refreshes its open preview.
 * The texts stay for the session (one per entry shown, a few kilobytes): VS Code may drop a
 * document its preview still shows and ask for it again when the preview renders anew.
 */
class BalanceReports implements vscode.TextDocumentContentProvider {
  private readonly texts = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;

  set(report: server.BalanceReport): vscode.Uri {
    const uri = vscode.Uri.from({ scheme: server.BALANCE_SCHEME, path: server.balancePath(report) });
    const key = uri.toString();
    const had = this.texts.has(key);
    this.texts.set(key, server.balanceDocument(report));
    if (had) this.changed.fire(uri);
    return uri;
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    // A preview restored after a reload asks for a report this session never made.
    return this.texts.get(uri.toString()) ?? "# Balance\n\nThis report is gone: click the balance lens again, or run \"rustkeep: Show balance of the entry under the cursor\".\n";
  }

  dispose(): void {
    this.changed.dispose();
  }
}

let balanceReports: BalanceReports;

/**
 * `rustkeep.showBalance`: the balance report of a creature or loot table, which the running
 * server computes (`workspace/executeCommand`), in the Markdown preview. The report is a
 * read-only document of the extension (`rustkeep-balance:`), never an untitled one: nothing to
 * save, so closing it asks nothing. Only the preview is shown, not the Markdown source. A lens
 * passes its `[uri, id]`; from the palette, the entry at the cursor.
 */
async function showBalance(args: unknown[]): Promise<void> {
  const editor = vscode.window.activeTextEditor;
  const pos = editor?.selection.active;
  const cursor = editor === undefined || pos === undefined ? undefined : { uri: editor.document.uri.toString(), line: pos.line, character: pos.character };
  const params = server.balanceArguments(args, cursor);
  if (params === undefined) {
    void vscode.window.showWarningMessage("rustkeep: put the cursor on a creature or a loot table first.");
    return;
  }
  const running = client;
  if (running === undefined || !running.isRunning()) {
    const why = currentStatus.kind === "starting" ? "is still starting; try again in a moment" : "is not running";
    void vscode.window.showErrorMessage(`rustkeep: the language server ${why}, and the balance comes from it.`, "Show log").then((choice) => {
      if (choice === "Show log") output.show(true);
    });
    return;
  }
  let report: server.BalanceReport;
  try {
    const result: unknown = await running.sendRequest(ExecuteCommandRequest.type, { command: server.SHOW_BALANCE, arguments: params });
    report = server.parseBalanceReport(result);
  } catch (e) {
    // The server's error response (no creature or loot table there) carries the message to show.
    void vscode.window.showErrorMessage(`rustkeep: ${(e as Error).message}`);
    return;
  }
  const uri = balanceReports.set(report);
  try {
    // In the editor's own group, as a tab beside the data file: the whole width of the editor
    // area. Beside the editor it got half of it at best, and the arena's table was cut.
    await vscode.commands.executeCommand("markdown.showPreview", uri);
  } catch (e) {
    // Without the built-in Markdown extension, the report's text, read-only.
    output.appendLine(`rustkeep: no Markdown preview of "${report.title}" (${(e as Error).message}); showing its text`);
    try {
      const doc = await vscode.workspace.openTextDocument(uri);
      await vscode.window.showTextDocument(doc, { preview: false });
    } catch (e2) {
      void vscode.window.showErrorMessage(`rustkeep: cannot show "${report.title}": ${(e2 as Error).message}`);
    }
  }
}

const resultChannels = new Map<string, vscode.OutputChannel>();

function showResult(title: string, result: RunResult): void {
  const name = title.startsWith("rustkeep loot") ? "rustkeep loot" : "rustkeep simulate";
  let channel = resultChannels.get(name);
  if (channel === undefined) {
    channel = vscode.window.createOutputChannel(name);
    resultChannels.set(name, channel);
  }
  channel.clear();
  channel.appendLine(`$ ${title}`);
  channel.append(result.stdout);
  if (result.stderr.length > 0) channel.append(result.stderr);
  channel.show(true);
  if (result.code !== 0) {
    void vscode.window.showErrorMessage(`${title} failed (exit code ${result.code}); see the output.`);
  }
}

/**
 * Points Even Better TOML at the shipped schemas of `mod.toml`, `rustkeep.toml`, scenario and data
 * files, by absolute URL in its user settings (see `server.schemaAssociations`), unless
 * `rustkeep.tomlSchemas` is off or Even Better TOML is not installed.
 */
async function syncTomlSchemas(context: vscode.ExtensionContext): Promise<void> {
  if (vscode.extensions.getExtension("tamasfe.even-better-toml") === undefined) return;
  if (!vscode.workspace.getConfiguration("rustkeep").get<boolean>("tomlSchemas", true)) return;
  const settings = vscode.workspace.getConfiguration("evenBetterToml");
  const current = settings.inspect<Record<string, string>>("schema.associations")?.globalValue ?? {};
  const rules = context.extension.packageJSON?.contributes?.tomlValidation ?? [];
  const next = server.schemaAssociations(rules, context.extensionUri.toString(), `${context.extension.id.toLowerCase()}-`, current);
  if (next !== undefined) {
    await settings.update("schema.associations", next, vscode.ConfigurationTarget.Global);
    output.appendLine("pointed Even Better TOML at the schemas of this version (evenBetterToml.schema.associations)");
  }
}

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  output = vscode.window.createOutputChannel("rustkeep");
  trace = vscode.window.createOutputChannel("rustkeep language server trace");
  statusItem = vscode.window.createStatusBarItem("rustkeep.server", vscode.StatusBarAlignment.Left, 0);
  statusItem.name = "rustkeep language server";
  void syncTomlSchemas(context).catch((e) => output.appendLine(`cannot set the TOML schema associations: ${e}`));
  checkProblems = vscode.languages.createDiagnosticCollection("rustkeep check");
  balanceReports = new BalanceReports();
  context.subscriptions.push(
    balanceReports,
    vscode.workspace.registerTextDocumentContentProvider(server.BALANCE_SCHEME, balanceReports),
    output,
    trace,
    statusItem,
    checkProblems,
    vscode.commands.registerCommand("rustkeep.showLog", () => output.show(true)),
    vscode.commands.registerCommand("rustkeep.checkWorkspace", () => checkWorkspace(context)),
    vscode.commands.registerCommand("rustkeep.lootUnderCursor", () => lootUnderCursor(context)),
    vscode.commands.registerCommand("rustkeep.simulateScenario", () => simulateScenario(context)),
    vscode.commands.registerCommand("rustkeep.restartServer", () => restartClient(context)),
    // Client-side: the server answers it but does not announce it (see `server.SHOW_BALANCE`).
    vscode.commands.registerCommand(server.SHOW_BALANCE, (...args: unknown[]) => showBalance(args)),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration("rustkeep.server")) void restartClient(context);
    }),
  );

  // New or deleted mod folders change the set of files the server serves.
  const watcher = vscode.workspace.createFileSystemWatcher("**/{mod,rustkeep}.toml", false, true, false);
  let pending: NodeJS.Timeout | undefined;
  const later = () => {
    if (pending !== undefined) clearTimeout(pending);
    pending = setTimeout(() => void restartClient(context), 500);
  };
  context.subscriptions.push(watcher, watcher.onDidCreate(later), watcher.onDidDelete(later));
  // A TOML file of a mod outside the workspace starts (or widens) the server when opened.
  context.subscriptions.push(
    vscode.workspace.onDidOpenTextDocument((doc) => {
      if (doc.uri.scheme !== "file" || doc.languageId !== "toml") return;
      const root = server.modRootOf(doc.uri.fsPath, nodeHost);
      if (root === undefined) return;
      const served = servedRoots.some((r) => root === r || root.startsWith(r + path.sep));
      if (!served) later();
    }),
  );

  await queued(() => startClient(context));
}

export function deactivate(): Promise<void> {
  return queued(stopClient);
}
