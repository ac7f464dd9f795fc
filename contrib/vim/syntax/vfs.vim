" Vim syntax file for vfsim scripts (*.vfs), the language of vfsim(5).
" `make install` puts it in $(PREFIX)/share/vim/vimfiles/syntax/vfs.vim.
" tests/shell/contrib.sh checks that every command of vfsim's table is here.
if exists("b:current_syntax")
  finish
endif

syn case match

" setting up the world, running, looking, checking, scripts
syn keyword vfsWorld    kernel set fs override rule mount mkdir touch ls spawn kill reset sched
" define syscall NAME PARAM... / define function NAME, its steps, end;
" field NAME of file|inode; hook vfs_llseek|lookup|wrap_directory_iterator FUNCTION
syn keyword vfsWorld    define end syscall function field hook
syn keyword vfsStep     lock unlock downgrade fdget fdget_pos fdput fdput_pos call
syn keyword vfsStep     of killable nested file inode if else upgrade iterate dead
syn keyword vfsStep     __acquires __releases before after
syn match   vfsStep     "\<__must_hold([a-z_]*)"
syn keyword vfsRun      step run back explore compare
syn keyword vfsLook     ps fds files locks where trace stats reports lockdep history
syn keyword vfsLook     timeline export
syn keyword vfsScript   source echo save lessons help apropos pause clear quit
syn keyword vfsExpect   expect nextgroup=vfsCond skipwhite
syn keyword vfsCond     contained no ret entries fpos count field took skipped blocked race
syn keyword vfsCond     contained duplicate deadlock lockorder deaddir

" a thread's system calls, after THREAD:
syn match   vfsThread   "^\s*[A-Za-z_][A-Za-z0-9_.]*:" nextgroup=vfsCall skipwhite
syn keyword vfsCall     contained open close dup dup2 clone fork exit pidfd_open
syn keyword vfsCall     contained pidfd_getfd getdents lseek read write pread pwrite readv fsync
syn keyword vfsCall     contained creat unlink rmdir rename mkdir

syn keyword vfsLock     f_pos_lock i_rwsem f_lock rename_mutex d_update
syn keyword vfsWord     rdonly wronly rdwr directory cloexec until on off jsonl
syn keyword vfsWord     rr fifo random stateful naive replay max jobs bound live
syn match   vfsErrno    "\<E[A-Z]\{2,}\>"
syn match   vfsPreset   "\<v[0-9]\+\.[0-9]\+\>\|\<mainline\>\|\<[0-9a-f]\{12}\>"
syn match   vfsNumber   "\<-\?[0-9]\+\>"
syn match   vfsFile     "\<file#[0-9]\+\>"
syn match   vfsPath     "\(^\|\s\)\zs/[^ \t#'\"]*"
syn match   vfsVar      "\$ret\>"
syn match   vfsBackground "&\s*$"
syn region  vfsString   start=+'+ end=+'+ oneline
syn region  vfsString   start=+"+ skip=+\\"+ end=+"+ oneline contains=vfsVar
syn match   vfsComment  "#.*$" contains=vfsTodo
syn keyword vfsTodo     contained TODO FIXME XXX NOTE

hi def link vfsWorld      Statement
hi def link vfsStep     Statement
hi def link vfsRun        Statement
hi def link vfsLook       Statement
hi def link vfsScript     Statement
hi def link vfsExpect     Keyword
hi def link vfsCond       Type
hi def link vfsThread     Identifier
hi def link vfsCall       Function
hi def link vfsLock       Type
hi def link vfsWord       Constant
hi def link vfsErrno      Constant
hi def link vfsPreset     Constant
hi def link vfsNumber     Number
hi def link vfsFile       Special
hi def link vfsPath       String
hi def link vfsVar        PreProc
hi def link vfsBackground Special
hi def link vfsString     String
hi def link vfsComment    Comment
hi def link vfsTodo       Todo

let b:current_syntax = "vfs"
