" rustkeep mod files stay `toml`; this only marks TOML buffers of mods (b:rustkeep_root), so that
" the plugin knows which folder is the workspace. Vimscript, because Neovim 0.7 reads no Lua here.
autocmd BufRead,BufNewFile *.toml setfiletype toml | lua require('rustkeep').detect(tonumber(vim.fn.expand('<abuf>')))
