//! End to end in a real editor, through the shipped Neovim plugin: headless Neovim (0.7 or newer)
//! gets `editors/neovim` on its runtime path and `require("rustkeep").setup({ cmd = { BIN, "lsp" } })`
//! with the binary under test, then opens a file of a copy of the rat-catcher example with one
//! known mistake. The plugin's own detection and autostart must start `rustkeep lsp` and attach
//! it; the script then writes what it saw as JSON: the buffer's workspace root and clients, the
//! diagnostics, the completion offered in `on = "`, where go to definition leads for a mod ID and
//! for a core ID, what `:RustkeepLoot` shows, the balance lenses of the creatures file and the
//! report `:RustkeepBalance` opens for the creature under the cursor. Skips (saying so) when `nvim` is not installed,
//! and fails then under `RUSTKEEP_REQUIRE_TOOLS=1`; CI installs it (`.ci/run`).

use std::path::{Path, PathBuf};

use rustkeep_testutil::{copy_dir, repo_path, tools, TempDir};
use serde_json::Value;

/// Line (0-based) and column of the first occurrence of `needle` in `text`, plus `skip` bytes.
fn pos(text: &str, needle: &str, skip: usize) -> (usize, usize) {
    let at = text.find(needle).unwrap_or_else(|| panic!("`{needle}` in the fixture")) + skip;
    let line = text[..at].matches('\n').count();
    let col = at - text[..at].rfind('\n').map_or(0, |i| i + 1);
    (line, col)
}

/// A Lua string literal.
fn lua_str(s: &str) -> String {
    format!("{s:?}")
}

/// The `-u` file of the editor: it loads the plugin the way a user's configuration does and
/// runs the checks once Neovim has started (and the plugin has seen the file open).
const INIT_LUA: &str = r#"
-- The shipped plugin, configured as its README says; nothing below starts a client by hand.
vim.opt.runtimepath:prepend(PLUGIN)
require("rustkeep").setup({ cmd = { BIN, "lsp" } })

local function test()
  local buf = vim.api.nvim_get_current_buf()
  out.nvim = tostring(vim.version().major) .. "." .. tostring(vim.version().minor)
  describe_buffer(buf, { "RustkeepLoot", "RustkeepBalance", "RustkeepSimulate", "RustkeepCheck" })
  out.clients = {}
  for _, c in ipairs(clients_of(buf)) do
    table.insert(out.clients, { name = c.name, cmd = c.config.cmd, root_dir = c.config.root_dir })
  end

  -- Diagnostics are pushed after initialize; wait for the known mistake.
  local function code_of(d)
    if d.code then return d.code end
    local u = d.user_data and d.user_data.lsp
    return u and u.code
  end
  local seen = vim.wait(30000, function()
    for _, d in ipairs(vim.diagnostic.get(buf)) do
      if code_of(d) == "unknown-event" then return true end
    end
    return false
  end, 50)
  out.waited_for_diagnostics = seen
  out.diagnostics = {}
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    table.insert(out.diagnostics, { code = code_of(d), lnum = d.lnum, col = d.col, message = d.message })
  end

  local uri = vim.uri_from_bufnr(buf)
  local function request(method, line, col)
    local params = { textDocument = { uri = uri }, position = { line = line, character = col } }
    local res, e = vim.lsp.buf_request_sync(buf, method, params, 20000)
    if not res then
      table.insert(out.errors, method .. ": " .. tostring(e))
      return nil
    end
    for _, r in pairs(res) do
      if r.error then table.insert(out.errors, method .. ": " .. vim.inspect(r.error)) end
      if r.result then return r.result end
    end
    return nil
  end

  local items = request("textDocument/completion", EVENT_AT[1], EVENT_AT[2]) or {}
  out.completion = {}
  for _, it in ipairs(items.items or items) do
    table.insert(out.completion, it.label)
  end

  local function locations(r)
    local list = {}
    if r == nil then return list end
    if r.uri or r.targetUri then r = { r } end
    for _, l in ipairs(r) do
      local range = l.range or l.targetSelectionRange
      table.insert(list, { path = vim.uri_to_fname(l.uri or l.targetUri), line = range.start.line })
    end
    return list
  end
  out.mod_definition = locations(request("textDocument/definition", MOD_ID_AT[1], MOD_ID_AT[2]))
  out.core_definition = locations(request("textDocument/definition", CORE_ID_AT[1], CORE_ID_AT[2]))

  -- The plugin's command runs the configured binary and shows the chances in a scratch buffer.
  vim.cmd("RustkeepLoot " .. LOOT_ID)
  local name = "rustkeep://loot/" .. LOOT_ID
  vim.wait(30000, function() return vim.fn.bufnr(name) ~= -1 end, 50)
  local loot = vim.fn.bufnr(name)
  out.loot = loot ~= -1 and vim.api.nvim_buf_get_lines(loot, 0, -1, false) or {}

  -- The balance lenses of the creatures file (the plugin refreshes them), then the report of
  -- the creature under the cursor in a scratch split.
  vim.cmd("edit " .. vim.fn.fnameescape(CREATURES))
  local cbuf = vim.api.nvim_get_current_buf()
  local function lens_titles()
    local titles = {}
    for _, l in ipairs(vim.lsp.codelens.get(cbuf) or {}) do
      table.insert(titles, l.command and l.command.title or "")
    end
    return titles
  end
  vim.wait(60000, function()
    for _, t in ipairs(lens_titles()) do
      if t:find("fights%)$") then return true end
    end
    return false
  end, 100)
  out.lenses = lens_titles()
  vim.api.nvim_win_set_cursor(0, { CREATURE_LINE + 1, 0 })
  vim.cmd("RustkeepBalance")
  local bname = "rustkeep://balance/" .. CREATURE_ID
  vim.wait(30000, function() return vim.fn.bufnr(bname) ~= -1 end, 50)
  local report = vim.fn.bufnr(bname)
  out.balance = report ~= -1 and vim.api.nvim_buf_get_lines(report, 0, -1, false) or {}

  for _, c in ipairs(clients_of(buf)) do
    vim.lsp.stop_client(c.id)
  end
end

-- `:edit` of the creatures file in the test must run the plugin's autocommands.
on_start(test, true)
"#;

#[test]
fn neovim_headless_drives_the_server() {
    if !tools::nvim() {
        return;
    }
    let ws = TempDir::new("ws");
    let m = ws.join("rat_catcher");
    copy_dir(&repo_path("examples/rat_catcher"), &m);
    // The known mistake: the first quest listens to an event that does not exist.
    let quests = m.join("quests.toml");
    let original = std::fs::read_to_string(&quests).unwrap();
    let text = original.replacen("on = \"creature_died\"", "on = \"creature_dyed\"", 1);
    assert_ne!(text, original);
    std::fs::write(&quests, &text).unwrap();
    let mistake = pos(&text, "creature_dyed", 0);
    let event_at = pos(&text, "on = \"room_entered\"", "on = \"".len());
    let mod_id_at = pos(&text, "rat_catcher:ratcatchers_cudgel", 3);
    let core_id_at = pos(&text, "core:gold", 3);
    let items = std::fs::read_to_string(m.join("items.toml")).unwrap();
    let cudgel_line = pos(&items, "id = \"rat_catcher:ratcatchers_cudgel\"", 0).0;
    let loot_id = "rat_catcher:sewer_rat_loot";
    let creatures = m.join("creatures.toml");
    let creature_line = pos(&std::fs::read_to_string(&creatures).unwrap(), "name = \"Sewer Rat\"", 0).0;
    let bin = env!("CARGO_BIN_EXE_rustkeep");

    let cache = TempDir::new("cache");
    let out = ws.join("result.json");
    let init = ws.join("init.lua");
    let prelude = format!(
        "BIN = {}\nPLUGIN = {}\nOUT = {}\nLOOT_ID = {}\nEVENT_AT = {{ {}, {} }}\nMOD_ID_AT = {{ {}, {} }}\nCORE_ID_AT = {{ {}, {} }}\nCREATURES = {}\nCREATURE_LINE = {}\nCREATURE_ID = {}\n",
        lua_str(bin),
        lua_str(&repo_path("editors/neovim").to_string_lossy()),
        lua_str(&out.to_string_lossy()),
        lua_str(loot_id),
        event_at.0,
        event_at.1,
        mod_id_at.0,
        mod_id_at.1,
        core_id_at.0,
        core_id_at.1,
        lua_str(&creatures.to_string_lossy()),
        creature_line,
        lua_str("rat_catcher:sewer_rat"),
    );
    std::fs::write(&init, prelude + rustkeep_testutil::nvim::RESULTS_LUA + INIT_LUA).unwrap();

    // The file is opened the way a user opens it, so that the plugin's detection and autostart
    // run. The server inherits the editor's environment: its cache of core files goes to `cache`.
    let text = rustkeep_testutil::nvim::headless(&init, &quests, &ws, &[("XDG_CACHE_HOME", cache.as_os_str())], &out);
    let result: Value = serde_json::from_str(&text).unwrap();
    eprintln!("neovim {} saw: {result:#}", result["nvim"]);
    assert_eq!(result["errors"], serde_json::json!([]), "{result:#}");

    // The plugin recognised the mod file, kept it `toml`, and started one client with the
    // configured binary for the mod's folder.
    assert_eq!(result["filetype"], "toml", "{result:#}");
    assert_eq!(Path::new(result["root"].as_str().unwrap()), m, "b:rustkeep_root: {result:#}");
    assert_eq!(result["clients"].as_array().map(Vec::len), Some(1), "one client attached: {result:#}");
    let client = &result["clients"][0];
    assert_eq!(client["name"], "rustkeep");
    assert_eq!(client["cmd"], serde_json::json!([bin, "lsp"]));
    assert_eq!(Path::new(client["root_dir"].as_str().unwrap()), m);
    for command in ["RustkeepLoot", "RustkeepBalance", "RustkeepSimulate", "RustkeepCheck"] {
        assert_eq!(result["commands"][command], true, ":{command} is defined: {result:#}");
    }

    // The mistake is reported where it is, with its code.
    assert_eq!(result["waited_for_diagnostics"], true, "{result:#}");
    let diags = result["diagnostics"].as_array().unwrap();
    assert_eq!(diags.len(), 1, "{diags:?}");
    assert_eq!(diags[0]["code"], "unknown-event");
    assert_eq!((diags[0]["lnum"].as_u64().unwrap() as usize, diags[0]["col"].as_u64().unwrap() as usize), (mistake.0, mistake.1 - 1));
    assert!(diags[0]["message"].as_str().unwrap().contains("creature_died"), "did you mean: {diags:?}");

    // Event names are offered in `on = "`.
    let labels: Vec<&str> = result["completion"].as_array().unwrap().iter().filter_map(|v| v.as_str()).collect();
    assert!(labels.contains(&"creature_died") && labels.contains(&"room_entered"), "{labels:?}");

    // A mod ID goes to its entry; a core ID into the served core files in the cache folder.
    let defs = result["mod_definition"].as_array().unwrap();
    assert_eq!(defs.len(), 1, "{defs:?}");
    assert_eq!(Path::new(defs[0]["path"].as_str().unwrap()), m.join("items.toml"));
    assert_eq!(defs[0]["line"].as_u64().unwrap() as usize, cudgel_line);
    let core = result["core_definition"].as_array().unwrap();
    assert_eq!(core.len(), 1, "{core:?}");
    let core_path = PathBuf::from(core[0]["path"].as_str().unwrap());
    assert!(core_path.starts_with(cache.join("rustkeep")), "{core_path:?}");
    let core_text = std::fs::read_to_string(&core_path).unwrap();
    let line = core_text.lines().nth(core[0]["line"].as_u64().unwrap() as usize).unwrap();
    assert_eq!(line, "id = \"core:gold\"");

    // :RustkeepLoot ran the configured binary in the mod's folder and shows its answer.
    let loot: Vec<&str> = result["loot"].as_array().unwrap().iter().filter_map(|v| v.as_str()).collect();
    assert_eq!(loot.first().copied(), Some(format!("$ {bin} loot {loot_id} --format human --no-color").as_str()), "{loot:?}");
    assert!(loot.iter().any(|l| l.starts_with(&format!("{loot_id} — item table"))), "{loot:?}");
    assert!(loot.iter().any(|l| l.starts_with("rat_catcher:cheese_wedge ") && l.contains(" %")), "{loot:?}");
    assert!(!loot.iter().any(|l| l.starts_with("(exit code")), "{loot:?}");

    // The balance lenses show each creature's arena row; :RustkeepBalance opens its report.
    let lenses: Vec<&str> = result["lenses"].as_array().unwrap().iter().filter_map(|v| v.as_str()).collect();
    assert!(lenses.iter().any(|t| t.contains("warrior ") && t.ends_with("(1,000 fights)")), "{lenses:?} {result:#}");
    let report: Vec<&str> = result["balance"].as_array().unwrap().iter().filter_map(|v| v.as_str()).collect();
    assert_eq!(report.first().copied(), Some("# Balance of rat_catcher:sewer_rat"), "{report:?}");
    assert!(report.iter().any(|l| l.contains("win rate")) && report.iter().any(|l| l.starts_with("| `core:warrior` |")), "{report:?}");
}
