-- Commands and autostart of the rustkeep plugin (see lua/rustkeep/init.lua and README.md).
if vim.g.loaded_rustkeep then
  return
end
vim.g.loaded_rustkeep = true

vim.api.nvim_create_user_command("RustkeepLoot", function(opts)
  require("rustkeep").loot(opts.args)
end, { nargs = "?", desc = "rustkeep: exact drop chances of a loot table (default: the ID under the cursor)" })

vim.api.nvim_create_user_command("RustkeepSimulate", function(opts)
  require("rustkeep").simulate(opts.args)
end, { nargs = "?", complete = "file", desc = "rustkeep: dry-run a scenario (default: the current file)" })

vim.api.nvim_create_user_command("RustkeepCheck", function()
  require("rustkeep").check()
end, { nargs = 0, desc = "rustkeep: check the current workspace" })

vim.api.nvim_create_user_command("RustkeepBalance", function(opts)
  require("rustkeep").balance(opts.args)
end, { nargs = "?", desc = "rustkeep: balance report of the creature or loot table at the cursor (or of ID)" })

local group = vim.api.nvim_create_augroup("rustkeep", { clear = true })
vim.api.nvim_create_autocmd("FileType", {
  group = group,
  pattern = "toml",
  callback = function(args)
    local rustkeep = require("rustkeep")
    if rustkeep.detect(args.buf) == nil then
      return
    end
    -- The lenses' command, also for a server another plugin starts (autostart = false).
    rustkeep.register_commands()
    if rustkeep.config.autostart then
      rustkeep.start(args.buf)
    end
  end,
})

-- Code lenses also for a rustkeep server started by nvim-lspconfig or vim.lsp.config (0.8+; the
-- plugin's own start calls on_attach itself, and a second call changes nothing).
if vim.fn.exists("##LspAttach") == 1 then
  vim.api.nvim_create_autocmd("LspAttach", {
    group = group,
    callback = function(args)
      local client = vim.lsp.get_client_by_id(args.data.client_id)
      if client ~= nil and client.name == "rustkeep" then
        require("rustkeep").on_attach(client, args.buf)
      end
    end,
  })
end
