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

local group = vim.api.nvim_create_augroup("rustkeep", { clear = true })
vim.api.nvim_create_autocmd("FileType", {
  group = group,
  pattern = "toml",
  callback = function(args)
    local rustkeep = require("rustkeep")
    if rustkeep.config.autostart and rustkeep.detect(args.buf) ~= nil then
      rustkeep.start(args.buf)
    end
  end,
})
