//! [`headless`]: Neovim driven by a Lua script, as the editor tests run it, and [`RESULTS_LUA`],
//! what those scripts share.

use std::ffi::OsStr;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The Lua every editor test's script starts with (after its globals, `OUT` among them): the
/// table `out` of findings, which [`headless`] returns as JSON, and functions to fill it.
///
/// - `out.notifications` collects what the plugin tells the user (it explains a failure), and
///   `out.errors` the errors of the script.
/// - `finish()` writes `out` to `OUT` and quits.
/// - `clients_of(buf)`: the language clients attached to the buffer (on Neovim 0.7 too), after
///   waiting up to 30 s for the first; `describe_buffer(buf, commands)` records its file type,
///   the mod root the plugin found and which of the `commands` exist.
/// - `on_start(test, nested)` runs `test` once Neovim has started (`nested`: with the
///   autocommands of what it opens), records its error, and finishes.
pub const RESULTS_LUA: &str = r#"
out = { errors = {}, notifications = {} }

local notify = vim.notify
vim.notify = function(msg, level, opts)
  table.insert(out.notifications, tostring(msg))
  return notify(msg, level, opts)
end

function finish()
  local f = io.open(OUT, "w")
  f:write(vim.fn.json_encode(out))
  f:close()
  vim.cmd("qa!")
end

-- Neovim 0.10+ has vim.lsp.get_clients; 0.7 has buf_get_clients (keyed by client id).
local function attached(buf)
  if vim.lsp.get_clients ~= nil then
    return vim.lsp.get_clients({ bufnr = buf })
  end
  return vim.tbl_values(vim.lsp.buf_get_clients(buf))
end

function clients_of(buf)
  vim.wait(30000, function() return #attached(buf) > 0 end, 50)
  return attached(buf)
end

function describe_buffer(buf, commands)
  out.filetype = vim.bo[buf].filetype
  local has_root, root = pcall(vim.api.nvim_buf_get_var, buf, "rustkeep_root")
  out.root = has_root and root or ""
  out.commands = {}
  for _, name in ipairs(commands) do
    out.commands[name] = vim.fn.exists(":" .. name) == 2
  end
end

function on_start(test, nested)
  vim.api.nvim_create_autocmd("VimEnter", {
    once = true,
    nested = nested,
    callback = function()
      local ok, err = xpcall(test, debug.traceback)
      if not ok then table.insert(out.errors, tostring(err)) end
      finish()
    end,
  })
end
"#;

/// Runs `nvim --headless --clean -u INIT FILE` in `cwd` with the extra environment `env`, waits
/// for it to quit, and returns what the script wrote to `result`. The script writes its findings
/// there and quits by itself; the two minutes allowed are a guard against a hung editor, not a
/// timing assertion.
pub fn headless(init: &Path, file: &Path, cwd: &Path, env: &[(&str, &OsStr)], result: &Path) -> String {
    let mut child = Command::new("nvim")
        .args(["--headless", "--clean", "-u"])
        .arg(init)
        .arg(file)
        .current_dir(cwd)
        .envs(env.iter().copied())
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("nvim starts");
    let start = Instant::now();
    while child.try_wait().expect("nvim can be waited for").is_none() {
        if start.elapsed() > Duration::from_secs(120) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("nvim did not finish");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    std::fs::read_to_string(result).unwrap_or_else(|e| panic!("nvim wrote no results to {}: {e}", result.display()))
}
