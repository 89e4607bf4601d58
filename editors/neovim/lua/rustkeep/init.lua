-- rustkeep for Neovim: starts the language server `rustkeep lsp` for TOML files of rustkeep mods
-- and offers :RustkeepLoot and :RustkeepSimulate. Works on Neovim 0.7+ (`vim.lsp.start` is used
-- where it exists, 0.8+; older versions use `vim.lsp.start_client` + `vim.lsp.buf_attach_client`).
-- Mod TOML files keep the filetype `toml`; the plugin only marks them (b:rustkeep_root).

local M = {}

local defaults = {
  -- The server command. The CLI commands use cmd[1] as the binary.
  cmd = { "rustkeep", "lsp" },
  -- Start the server automatically for TOML files of mods. Set to false when nvim-lspconfig (or
  -- vim.lsp.config) starts it instead, so that it does not run twice.
  autostart = true,
  -- Passed to the client as they are.
  on_attach = nil,
  capabilities = nil,
  -- Height of the scratch window of :RustkeepLoot / :RustkeepSimulate (0 = half the screen).
  height = 0,
}

M.config = vim.deepcopy(defaults)

--- Configure the plugin. Every key is optional: `cmd`, `autostart`, `on_attach`, `capabilities`, `height`.
function M.setup(opts)
  M.config = vim.tbl_deep_extend("force", vim.deepcopy(defaults), opts or {})
  if type(M.config.cmd) == "string" then
    M.config.cmd = { M.config.cmd, "lsp" }
  end
end

local uv = vim.loop

local function exists(path)
  return uv.fs_stat(path) ~= nil
end

local function dirname(path)
  local parent = path:match("^(.*)[/\\][^/\\]*$")
  if parent == nil or parent == "" then
    return "/"
  end
  return parent
end

local function join(dir, name)
  if dir:sub(-1) == "/" then
    return dir .. name
  end
  return dir .. "/" .. name
end

--- The folders that make `file` part of a mod: the nearest folder with a `mod.toml` at or above the
--- file's folder, and the workspace root (the nearest folder above that with a `rustkeep.toml`, else
--- the mod folder). Returns nil when the file is in no mod (a workspace's own rustkeep.toml counts).
function M.find_root(file)
  if file == nil or file == "" then
    return nil
  end
  local dir = dirname(file)
  local mod_root, workspace
  while true do
    if mod_root == nil and exists(join(dir, "mod.toml")) then
      mod_root = dir
    end
    if exists(join(dir, "rustkeep.toml")) then
      workspace = dir
    end
    local parent = dirname(dir)
    if parent == dir then
      break
    end
    dir = parent
  end
  if mod_root == nil then
    -- The workspace file itself is served too.
    if file:match("[/\\]rustkeep%.toml$") then
      return dirname(file), nil
    end
    return nil
  end
  if workspace ~= nil and mod_root:sub(1, #workspace) == workspace then
    return workspace, mod_root
  end
  return mod_root, mod_root
end

--- Marks a TOML buffer of a mod with b:rustkeep_root (called from ftdetect); returns the root.
function M.detect(bufnr)
  bufnr = tonumber(bufnr) or vim.api.nvim_get_current_buf()
  local root = M.find_root(vim.api.nvim_buf_get_name(bufnr))
  if root ~= nil then
    vim.api.nvim_buf_set_var(bufnr, "rustkeep_root", root)
  end
  return root
end

local function buffer_root(bufnr)
  local ok, root = pcall(vim.api.nvim_buf_get_var, bufnr, "rustkeep_root")
  if ok and root ~= nil then
    return root
  end
  return M.detect(bufnr)
end

-- Client ids by root folder, for Neovim without vim.lsp.start.
local clients = {}

--- Starts (or reuses) the server for the buffer's workspace and attaches the buffer.
function M.start(bufnr)
  bufnr = bufnr or vim.api.nvim_get_current_buf()
  local root = buffer_root(bufnr)
  if root == nil then
    return nil
  end
  local config = {
    name = "rustkeep",
    cmd = M.config.cmd,
    root_dir = root,
    workspace_folders = { { uri = vim.uri_from_fname(root), name = root } },
    on_attach = M.config.on_attach,
    capabilities = M.config.capabilities,
  }
  if vim.fn.executable(M.config.cmd[1]) ~= 1 then
    vim.notify(
      "rustkeep: `" .. M.config.cmd[1] .. "` is not executable. Install it (:MasonInstall rustkeep, "
        .. "or cargo install rustkeep-cli --locked, or a release installer: see the README's Installation) "
        .. "or pass cmd = { '/path/to/rustkeep', 'lsp' } to require('rustkeep').setup{}.",
      vim.log.levels.ERROR
    )
    return nil
  end
  if vim.lsp.start ~= nil then
    return vim.lsp.start(config, { bufnr = bufnr })
  end
  local id = clients[root]
  if id == nil or vim.lsp.get_client_by_id(id) == nil then
    id = vim.lsp.start_client(config)
    clients[root] = id
  end
  if id ~= nil then
    vim.lsp.buf_attach_client(bufnr, id)
  end
  return id
end

--- The ID under (or right before) byte column `col` (1-based) of `line`, or nil.
function M.id_at(line, col)
  -- The ID grammar as a Lua pattern (segments are checked below); kept equal to the vocabulary's
  -- by crates/rustkeep-data/tests/vocabulary.rs.
  local start = 1
  while true do
    local s, e = line:find("[a-z][a-z0-9_]*:[a-z0-9_/]+", start)
    if s == nil then
      return nil
    end
    if col >= s and col <= e + 1 then
      local id = line:sub(s, e):gsub("/+$", "")
      -- A namespace directly after another identifier character is part of a longer word.
      if s > 1 and line:sub(s - 1, s - 1):match("[%w_]") then
        return nil
      end
      if id:find("//", 1, true) then
        return nil
      end
      return id
    end
    start = e + 1
  end
end

local function binary()
  return M.config.cmd[1]
end

--- Shows `lines` in a scratch buffer in a split (replacing the previous one of the same title).
local function show(title, lines)
  local name = "rustkeep://" .. title
  local existing = vim.fn.bufnr(name)
  if existing ~= -1 then
    vim.api.nvim_buf_delete(existing, { force = true })
  end
  local height = M.config.height
  if height == nil or height <= 0 then
    height = math.floor(vim.o.lines / 2)
  end
  vim.cmd("botright " .. height .. "new")
  local buf = vim.api.nvim_get_current_buf()
  vim.bo[buf].buftype = "nofile"
  vim.bo[buf].bufhidden = "wipe"
  vim.bo[buf].swapfile = false
  vim.api.nvim_buf_set_name(buf, name)
  vim.api.nvim_buf_set_lines(buf, 0, -1, false, lines)
  vim.bo[buf].modifiable = false
  vim.keymap.set("n", "q", "<cmd>close<cr>", { buffer = buf, silent = true })
  return buf
end

--- Runs the CLI asynchronously in `cwd` and shows its output (stdout, then stderr) in a scratch buffer.
local function run(title, args, cwd)
  local cmd = { binary() }
  vim.list_extend(cmd, args)
  local out, err = {}, {}
  local function collect(into)
    return function(_, data)
      for _, l in ipairs(data or {}) do
        table.insert(into, l)
      end
    end
  end
  local job = vim.fn.jobstart(cmd, {
    cwd = cwd,
    stdout_buffered = true,
    stderr_buffered = true,
    env = { NO_COLOR = "1" },
    on_stdout = collect(out),
    on_stderr = collect(err),
    on_exit = function(_, code)
      vim.schedule(function()
        local lines = { "$ " .. table.concat(cmd, " "), "" }
        vim.list_extend(lines, out)
        vim.list_extend(lines, err)
        while #lines > 0 and lines[#lines] == "" do
          table.remove(lines)
        end
        if code ~= 0 then
          table.insert(lines, "")
          table.insert(lines, "(exit code " .. code .. ")")
        end
        show(title, lines)
      end)
    end,
  })
  if job <= 0 then
    vim.notify("rustkeep: cannot run `" .. binary() .. "`; set cmd in require('rustkeep').setup{}", vim.log.levels.ERROR)
  end
end

--- :RustkeepLoot [ID]: the exact drop chances of a loot table (default: the ID under the cursor).
function M.loot(id)
  if id == nil or id == "" then
    local col = vim.api.nvim_win_get_cursor(0)[2] + 1
    id = M.id_at(vim.api.nvim_get_current_line(), col)
  end
  if id == nil then
    vim.notify("rustkeep: no loot table ID under the cursor; use :RustkeepLoot namespace:name", vim.log.levels.WARN)
    return
  end
  local cwd = buffer_root(vim.api.nvim_get_current_buf()) or vim.fn.getcwd()
  run("loot/" .. id, { "loot", id, "--format", "human", "--no-color" }, cwd)
end

--- :RustkeepSimulate [FILE]: dry-run a scenario (default: the current file).
function M.simulate(file)
  if file == nil or file == "" then
    if vim.bo.modified then
      vim.cmd("write")
    end
    file = vim.api.nvim_buf_get_name(0)
  end
  file = vim.fn.fnamemodify(file, ":p")
  if not exists(file) then
    vim.notify("rustkeep: no scenario file " .. file, vim.log.levels.WARN)
    return
  end
  run("simulate/" .. vim.fn.fnamemodify(file, ":t"), { "simulate", file, "--format", "human" }, dirname(file))
end

--- :RustkeepCheck: `rustkeep check` of the current buffer's workspace, in a scratch buffer.
function M.check()
  local cwd = buffer_root(vim.api.nvim_get_current_buf()) or vim.fn.getcwd()
  run("check", { "check", "--no-color" }, cwd)
end

return M
