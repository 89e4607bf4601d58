//! End to end in a real editor: headless Neovim (0.7 or newer, the Lua LSP client) runs
//! `rustkeep lsp` on a copy of the rat-catcher example with one known mistake, and writes what it
//! saw as JSON: the diagnostics of the buffer, the completion offered in `on = "`, and where go to
//! definition leads for a mod ID and for a core ID. Skips (saying so) when `nvim` is not installed;
//! CI installs it (`.ci/run`).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

fn temp(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("rustkeep-lsp-nvim-{}-{tag}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn has_nvim() -> bool {
    Command::new("nvim").arg("--version").stdout(Stdio::null()).stderr(Stdio::null()).status().is_ok_and(|s| s.success())
}

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

const INIT_LUA: &str = r#"
local out = { errors = {} }
local function finish()
  local f = io.open(OUT, "w")
  f:write(vim.fn.json_encode(out))
  f:close()
  vim.cmd("qa!")
end

local ok, err = pcall(function()
  vim.cmd("edit " .. vim.fn.fnameescape(FILE))
  local buf = vim.api.nvim_get_current_buf()
  local client = vim.lsp.start_client({
    name = "rustkeep",
    cmd = { BIN, "lsp" },
    cmd_env = { XDG_CACHE_HOME = CACHE },
    root_dir = ROOT,
  })
  assert(client, "the client starts")
  vim.lsp.buf_attach_client(buf, client)

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
  out.nvim = tostring(vim.version().major) .. "." .. tostring(vim.version().minor)
  vim.lsp.stop_client(client)
end)
if not ok then table.insert(out.errors, tostring(err)) end
finish()
"#;

#[test]
fn neovim_headless_drives_the_server() {
    if !has_nvim() {
        eprintln!("SKIPPED neovim_headless_drives_the_server: `nvim` is not installed (apt-get install neovim)");
        return;
    }
    let ws = temp("ws");
    let m = ws.join("rat_catcher");
    std::fs::create_dir_all(&m).unwrap();
    let examples = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/rat_catcher");
    for e in std::fs::read_dir(&examples).unwrap().flatten() {
        std::fs::copy(e.path(), m.join(e.file_name())).unwrap();
    }
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

    let cache = temp("cache");
    let out = ws.join("result.json");
    let init = ws.join("init.lua");
    let prelude = format!(
        "BIN = {}\nROOT = {}\nFILE = {}\nCACHE = {}\nOUT = {}\nEVENT_AT = {{ {}, {} }}\nMOD_ID_AT = {{ {}, {} }}\nCORE_ID_AT = {{ {}, {} }}\n",
        lua_str(env!("CARGO_BIN_EXE_rustkeep")),
        lua_str(&ws.to_string_lossy()),
        lua_str(&quests.to_string_lossy()),
        lua_str(&cache.to_string_lossy()),
        lua_str(&out.to_string_lossy()),
        event_at.0,
        event_at.1,
        mod_id_at.0,
        mod_id_at.1,
        core_id_at.0,
        core_id_at.1,
    );
    std::fs::write(&init, prelude + INIT_LUA).unwrap();

    let mut child = Command::new("nvim")
        .args(["--headless", "--clean", "-u"])
        .arg(&init)
        .current_dir(&ws)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("nvim starts");
    // Only a guard against a hung editor, not a timing assertion.
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > Duration::from_secs(120) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("nvim did not finish");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let result: Value = serde_json::from_str(&std::fs::read_to_string(&out).expect("nvim wrote its results")).unwrap();
    eprintln!("neovim {} saw: {result:#}", result["nvim"]);
    assert_eq!(result["errors"], serde_json::json!([]), "{result:#}");

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
    let _ = std::fs::remove_dir_all(&ws);
    let _ = std::fs::remove_dir_all(&cache);
}
