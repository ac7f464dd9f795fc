" vfsim scripts: *.vfs
autocmd BufRead,BufNewFile *.vfs setfiletype vfs
