//! The Neovim set-up of `docs/editors/neovim.md` works as written: the lazy.nvim spec of the
//! plugin is loaded in headless Neovim and its `config` is called the way lazy.nvim calls it (with
//! the plugin's checkout, here this repository); the plugin must then define its commands, detect
//! a mod file and start the server found on `PATH` (where Mason puts it). The Mason spec must
//! point at the folder of this repository that holds the package definition. Skips when `nvim`
//! is missing (and fails then under `RUSTKEEP_REQUIRE_TOOLS=1`).

use std::path::Path;

use rustkeep_testutil::{repo_path, repo_root, tools, TempDir};
use serde_json::Value;

/// The ```` ```lua ```` blocks of a page, in order.
fn lua_blocks(page: &str) -> Vec<String> {
    page.split("```lua\n").skip(1).map(|b| b.split("```").next().expect("a closed block").to_string()).collect()
}

/// The block that holds `needle`, without its indentation (the page indents blocks in lists).
fn block_with(page: &str, needle: &str) -> String {
    let block = lua_blocks(&page.lines().map(str::trim_start).collect::<Vec<_>>().join("\n"))
        .into_iter()
        .find(|b| b.contains(needle))
        .unwrap_or_else(|| panic!("docs/editors/neovim.md has a lua block with {needle}"));
    block.lines().filter(|l| !l.trim_start().starts_with("--")).collect::<Vec<_>>().join("\n")
}

const CHECKS: &str = r#"
-- lazy.nvim loads the spec while Neovim starts and calls `config(plugin, opts)` with the plugin's
-- checkout in `plugin.dir`; the file given on the command line is opened after that.
local spec = dofile(SPEC)
out.name = spec[1]
out.version = spec.version
out.ft = spec.ft
local ok, err = pcall(spec.config, { dir = REPO, name = "rustkeep-modkit" }, {})
if not ok then table.insert(out.errors, "config: " .. tostring(err)) end

on_start(function()
  local buf = vim.api.nvim_get_current_buf()
  describe_buffer(buf, { "RustkeepLoot", "RustkeepSimulate", "RustkeepCheck" })
  out.clients = {}
  for _, c in ipairs(clients_of(buf)) do
    table.insert(out.clients, { name = c.name, cmd = c.config.cmd })
    vim.lsp.stop_client(c.id)
  end
end)
"#;

#[test]
fn the_lazy_nvim_spec_of_the_docs_loads_the_plugin_and_starts_the_server() {
    if !tools::nvim() {
        return;
    }
    let page = std::fs::read_to_string(repo_path("docs/editors/neovim.md")).expect("docs/editors/neovim.md");
    let spec = block_with(&page, "\"rustkeep/rustkeep-modkit\"");
    let dir = TempDir::new("lazy");
    let spec_file = dir.join("spec.lua");
    std::fs::write(&spec_file, format!("return {spec}\n")).unwrap();
    // The server is the one on PATH, as Mason or an installer leaves it.
    let bin_dir = Path::new(env!("CARGO_BIN_EXE_rustkeep")).parent().expect("the binary's folder").to_path_buf();
    let path = std::env::join_paths(std::iter::once(bin_dir).chain(std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()))).unwrap();
    let file = repo_path("examples/rat_catcher/quests.toml");
    let out = dir.join("result.json");
    let init = dir.join("init.lua");
    let prelude = format!("SPEC = {:?}\nREPO = {:?}\nOUT = {:?}\n", spec_file.to_string_lossy(), repo_root().to_string_lossy(), out.to_string_lossy());
    std::fs::write(&init, prelude + rustkeep_testutil::nvim::RESULTS_LUA + CHECKS).unwrap();
    let cache = dir.join("cache");
    let env = [("PATH", path.as_os_str()), ("XDG_CACHE_HOME", cache.as_os_str())];
    let result: Value = serde_json::from_str(&rustkeep_testutil::nvim::headless(&init, &file, &dir, &env, &out)).unwrap();
    assert_eq!(result["errors"], serde_json::json!([]), "{result:#}");
    assert_eq!(result["name"], "rustkeep/rustkeep-modkit");
    assert_eq!(result["version"], "*", "the spec follows the release tags: {result:#}");
    assert_eq!(result["ft"], "toml");
    assert_eq!(result["filetype"], "toml", "mod files stay TOML: {result:#}");
    for command in ["RustkeepLoot", "RustkeepSimulate", "RustkeepCheck"] {
        assert_eq!(result["commands"][command], true, ":{command} is defined: {result:#}");
    }
    assert_eq!(Path::new(result["root"].as_str().unwrap_or("")), repo_path("examples/rat_catcher"), "the mod file is detected: {result:#}");
    assert_eq!(result["clients"].as_array().map(Vec::len), Some(1), "the server on PATH is started: {result:#}");
    assert_eq!(result["clients"][0]["cmd"], serde_json::json!(["rustkeep", "lsp"]), "{result:#}");
}

#[test]
fn the_mason_spec_of_the_docs_names_the_package_folder_of_the_repository() {
    let page = std::fs::read_to_string(repo_path("docs/editors/neovim.md")).expect("docs/editors/neovim.md");
    let mason = block_with(&page, "\"mason-org/mason.nvim\"");
    // lazy.nvim checks a plugin out into a folder named after its repository.
    let registry = "/lazy/rustkeep-modkit/editors/neovim/mason\"";
    assert!(mason.contains(registry) && mason.contains("\"file:\""), "the Mason spec adds this repository's folder as a registry:\n{mason}");
    assert!(mason.contains("\"github:mason-org/mason-registry\""), "and keeps the main registry:\n{mason}");
    // A Mason folder registry reads packages/NAME/package.yaml.
    assert!(repo_path("editors/neovim/mason/packages/rustkeep/package.yaml").is_file());
    assert!(page.contains(":MasonInstall rustkeep"));
}
