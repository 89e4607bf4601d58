-- rustkeep for Neovim: starts the language server `rustkeep lsp` for TOML files of rustkeep mods,
-- shows its code lenses, and offers :RustkeepLoot, :RustkeepSimulate and :RustkeepBalance. Works on
-- Neovim 0.7+ (`vim.lsp.start` is used where it exists, 0.8+; older versions use
-- `vim.lsp.start_client` + `vim.lsp.buf_attach_client`).
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
  -- Width of the balance report's window, a vertical split (0 = half the screen).
  width = 0,
  -- Show the server's code lenses (balance of creatures and loot tables, `▶ run` on scenarios)
  -- and keep them fresh (see M.on_attach).
  codelens = true,
}

M.config = vim.deepcopy(defaults)

--- Configure the plugin. Every key is optional: `cmd`, `autostart`, `on_attach`, `capabilities`,
--- `height`, `width`, `codelens`.
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

--- The server asks for the code lenses again: those of the current buffer, if the client serves
--- it (other buffers refresh theirs when entered).
local function codelens_refresh_handler(_, _, ctx)
  vim.schedule(function()
    local bufnr = vim.api.nvim_get_current_buf()
    if vim.lsp.buf_is_attached(bufnr, ctx.client_id) then
      vim.lsp.codelens.refresh({ bufnr = bufnr })
    end
  end)
  return vim.NIL
end

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
    on_attach = function(client, attached)
      M.on_attach(client, attached)
      if M.config.on_attach ~= nil then
        M.config.on_attach(client, attached)
      end
    end,
    capabilities = M.config.capabilities,
  }
  if M.config.codelens and vim.lsp.codelens.enable == nil then
    -- Before 0.12 Neovim neither announces nor answers `workspace/codeLens/refresh`, which the
    -- server sends when balance figures are in: the plugin does both for its own client.
    local capabilities = vim.deepcopy(M.config.capabilities or vim.lsp.protocol.make_client_capabilities())
    capabilities.workspace = capabilities.workspace or {}
    capabilities.workspace.codeLens = { refreshSupport = true }
    config.capabilities = capabilities
    config.handlers = { ["workspace/codeLens/refresh"] = codelens_refresh_handler }
  end
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

--- Shows `lines` in a scratch buffer in a split (replacing the previous one of the same title):
--- below, or at the right with `vertical`; `filetype` sets the buffer's.
local function show(title, lines, vertical, filetype)
  local name = "rustkeep://" .. title
  local existing = vim.fn.bufnr(name)
  if existing ~= -1 then
    vim.api.nvim_buf_delete(existing, { force = true })
  end
  -- The configured width (height) of the window, or half the screen's.
  local size, whole, split = M.config.height, vim.o.lines, "botright "
  if vertical then
    size, whole, split = M.config.width, vim.o.columns, "vertical botright "
  end
  if size == nil or size <= 0 then
    size = math.floor(whole / 2)
  end
  vim.cmd(split .. size .. "new")
  local buf = vim.api.nvim_get_current_buf()
  vim.bo[buf].buftype = "nofile"
  vim.bo[buf].bufhidden = "wipe"
  vim.bo[buf].swapfile = false
  vim.api.nvim_buf_set_name(buf, name)
  vim.api.nvim_buf_set_lines(buf, 0, -1, false, lines)
  if filetype ~= nil then
    vim.bo[buf].filetype = filetype
  end
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

-- The command of the balance code lenses (creatures, loot tables). A client-side command: the
-- server answers it through workspace/executeCommand but does not announce it, so that the
-- editor shows the report (see M.register_commands).
M.balance_command = "rustkeep.showBalance"

-- Client methods are called with `:` from Neovim 0.11 on (`.` is deprecated there); before, the
-- client's functions take no self.
local function client_request(client, method, params, handler, bufnr)
  if vim.fn.has("nvim-0.11") == 1 then
    return client:request(method, params, handler, bufnr)
  end
  return client.request(method, params, handler, bufnr)
end

--- The rustkeep client attached to `bufnr`, or nil.
local function attached_client(bufnr)
  local list
  if vim.lsp.get_clients ~= nil then
    list = vim.lsp.get_clients({ bufnr = bufnr, name = "rustkeep" })
  else
    list = vim.tbl_values(vim.lsp.buf_get_clients(bufnr))
  end
  for _, c in ipairs(list) do
    if c.name == "rustkeep" then
      return c
    end
  end
  return nil
end

--- Asks `client` for the balance report of `arguments` (`{ uri, id }` or `{ { uri = …, position = … } }`)
--- and shows its markdown in a scratch buffer in a vertical split (`rustkeep://balance/<id>`).
function M.request_balance(client, arguments, bufnr)
  local params = { command = M.balance_command, arguments = arguments }
  client_request(client, "workspace/executeCommand", params, function(err, result)
    if err ~= nil then
      vim.notify("rustkeep: " .. tostring(err.message or err), vim.log.levels.WARN)
      return
    end
    if type(result) ~= "table" or type(result.markdown) ~= "string" then
      vim.notify("rustkeep: the server's answer to " .. M.balance_command .. " has no report", vim.log.levels.ERROR)
      return
    end
    -- The entry's ID: the lens's argument, else the one the title names ("Balance of core:rat").
    local id = type(arguments[2]) == "string" and arguments[2] or nil
    local colon = type(result.title) == "string" and result.title:find(":", 1, true) or nil
    if id == nil and colon ~= nil then
      id = M.id_at(result.title, colon)
    end
    local lines = vim.split(result.markdown, "\n", { plain = true })
    while #lines > 0 and lines[#lines] == "" do
      table.remove(lines)
    end
    if not (lines[1] or ""):match("^%s*#") and type(result.title) == "string" then
      -- The report under its title, unless it starts with a heading of its own.
      table.insert(lines, 1, "")
      table.insert(lines, 1, "# " .. result.title)
    end
    show("balance/" .. (id or "entry"), lines, true, "markdown")
  end, bufnr)
end

--- The handler of the lenses' command (vim.lsp.commands): the report of the lens's entry, asked
--- of the client that gave the lens.
function M.show_balance(command, ctx)
  local client = vim.lsp.get_client_by_id(ctx.client_id)
  if client == nil then
    vim.notify("rustkeep: the language server of this lens is gone", vim.log.levels.WARN)
    return
  end
  M.request_balance(client, command.arguments or {}, ctx.bufnr)
end

--- :RustkeepBalance [ID]: the balance report of the creature or loot table at the cursor (or of ID).
function M.balance(id)
  local bufnr = vim.api.nvim_get_current_buf()
  local client = attached_client(bufnr)
  if client == nil then
    vim.notify("rustkeep: no rustkeep language server is attached to this buffer", vim.log.levels.WARN)
    return
  end
  local params = vim.lsp.util.make_position_params(0, client.offset_encoding)
  local arguments
  if id ~= nil and id ~= "" then
    arguments = { params.textDocument.uri, id }
  else
    arguments = { { uri = params.textDocument.uri, position = params.position } }
  end
  M.request_balance(client, arguments, bufnr)
end

--- Registers the client-side commands of the server's code lenses with Neovim.
function M.register_commands()
  vim.lsp.commands[M.balance_command] = M.show_balance
end

--- Shows the code lenses of `client` in `bufnr` and keeps them fresh, when the server has them
--- and `codelens` is on: vim.lsp.codelens.enable where it exists (0.12+, which refreshes them
--- itself), else a refresh on BufEnter, CursorHold and InsertLeave (and on the server's request,
--- see M.start). Called when the client attaches, from its on_attach and from LspAttach.
function M.on_attach(client, bufnr)
  M.register_commands()
  if not M.config.codelens or not (client.server_capabilities or {}).codeLensProvider then
    return
  end
  if vim.lsp.codelens.enable ~= nil then
    vim.lsp.codelens.enable(true, { bufnr = bufnr })
    return
  end
  local group = vim.api.nvim_create_augroup("rustkeep_codelens_" .. bufnr, { clear = true })
  local function refresh()
    -- Up to 0.9 refresh() takes no options and refreshes the current buffer, the event's one.
    vim.lsp.codelens.refresh({ bufnr = bufnr })
  end
  vim.api.nvim_create_autocmd({ "BufEnter", "CursorHold", "InsertLeave" }, { group = group, buffer = bufnr, callback = refresh })
  if bufnr == vim.api.nvim_get_current_buf() then
    refresh()
  end
end

return M
