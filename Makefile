# vfsim: GNU make.  `make help` lists the targets.
#
# Variants, each in its own directory:
#   build/          GNU readline (the default, LINEEDIT=readline)
#   build/libedit/  BSD libedit  (LINEEDIT=libedit)
#   build/none/     plain stdio  (LINEEDIT=none)
#   build/asan/     readline, AddressSanitizer + UBSan, what `make check` tests
#   build/tsan/     plain stdio, ThreadSanitizer: `make check` runs the
#                   explore tests (the parallel search) under it
# In each: libvfscore.a (core/*.c), vfsim (cli/*.c + the library),
# vfsim-driver (tests/driver/*.c + the library), tests/test_* (cmocka).
#
# CFLAGS, CPPFLAGS, LDFLAGS and LDLIBS given by the user are added after the
# project's own flags; a changed command line rebuilds the variant.

LINEEDIT ?= readline
PREFIX   ?= /usr/local
DESTDIR  ?=
BINDIR    = $(PREFIX)/bin
MANDIR    = $(PREFIX)/share/man
EXDIR     = $(PREFIX)/share/vfsim/examples
BASHCOMPDIR = $(PREFIX)/share/bash-completion/completions
VIMDIR    = $(PREFIX)/share/vim/vimfiles
INSTALL  ?= install
VERSION  := $(shell sed -n 's/^\#define VFSIM_VERSION "\(.*\)"/\1/p' cli/main.c)

# What the build makes from data (build/gen/NAME.inc from core/NAME.tbl
# or cli/NAME.tbl: the presets, the accessors, the commands), one copy for
# every variant.
GEN_DIR  := build/gen
GEN      := $(GEN_DIR)/presets.inc $(GEN_DIR)/accessors.inc $(GEN_DIR)/commands.inc
AWK      ?= awk

VFSIM_CPPFLAGS := -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -Icore -Icli -I$(GEN_DIR)
VFSIM_CFLAGS   := -std=c11 -Wall -Wextra -Werror -Wno-format-truncation -O2 -g -pthread
VFSIM_LDFLAGS  := -pthread
VFSIM_LDLIBS   := -lm
CMOCKA_LIBS     = $(shell pkg-config --libs cmocka 2>/dev/null || echo -lcmocka)

LE_readline_CPPFLAGS := -DVFSIM_LINEEDIT_READLINE
LE_readline_LIBS     := -lreadline
LE_libedit_CPPFLAGS  := -DVFSIM_LINEEDIT_LIBEDIT
LE_libedit_LIBS      := -ledit
LE_none_CPPFLAGS     := -DVFSIM_LINEEDIT_NONE
LE_none_LIBS         :=

ifeq ($(filter $(LINEEDIT),readline libedit none),)
$(error LINEEDIT must be readline, libedit or none, not '$(LINEEDIT)')
endif

# name     directory       line editor   extra compiler flags
default_DIR := build
default_LE  := readline
libedit_DIR := build/libedit
libedit_LE  := libedit
none_DIR    := build/none
none_LE     := none
asan_DIR    := build/asan
asan_LE     := readline
asan_FLAGS  := -O1 -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
tsan_DIR    := build/tsan
tsan_LE     := none
tsan_FLAGS  := -O1 -fsanitize=thread -fno-omit-frame-pointer
VARIANTS    := default libedit none asan tsan

# The variant that `make`, `make run` and `make install` use.
ifeq ($(LINEEDIT),readline)
BUILD := $(default_DIR)
else
BUILD := $($(LINEEDIT)_DIR)
endif

CORE_SRC   := $(sort $(wildcard core/*.c))
CLI_SRC    := $(sort $(wildcard cli/*.c))
DRIVER_SRC := $(sort $(wildcard tests/driver/*.c))
UNIT_SRC   := $(sort $(wildcard tests/unit/test_*.c))

.DEFAULT_GOAL := all

# $(1): variant name.  Defines <name>_OBJ, <name>_UNIT_BIN and the rules.
define VARIANT_RULES
$(1)_COMPILE := $$(CC) $$(VFSIM_CPPFLAGS) $$(LE_$$($(1)_LE)_CPPFLAGS) $$(CPPFLAGS) \
                $$(VFSIM_CFLAGS) $$($(1)_FLAGS) $$(CFLAGS)
$(1)_LINK    := $$(CC) $$(VFSIM_CFLAGS) $$($(1)_FLAGS) $$(CFLAGS) $$(VFSIM_LDFLAGS) $$(LDFLAGS)
$(1)_LIBS    := $$(VFSIM_LDLIBS) $$(LDLIBS)
$(1)_CORE_OBJ := $$(CORE_SRC:%.c=$$($(1)_DIR)/%.o)
$(1)_CLI_OBJ  := $$(CLI_SRC:%.c=$$($(1)_DIR)/%.o)
$(1)_DRV_OBJ  := $$(DRIVER_SRC:%.c=$$($(1)_DIR)/%.o)
$(1)_UNIT_OBJ := $$(UNIT_SRC:%.c=$$($(1)_DIR)/%.o)
$(1)_UNIT_BIN := $$(UNIT_SRC:tests/unit/%.c=$$($(1)_DIR)/tests/%)
$(1)_OBJ := $$($(1)_CORE_OBJ) $$($(1)_CLI_OBJ) $$($(1)_DRV_OBJ) $$($(1)_UNIT_OBJ)

# (made before any object: the public headers include accessors.inc; the
# .d files then name what each object includes)
$$($(1)_OBJ): $$($(1)_DIR)/%.o: %.c $$($(1)_DIR)/.flags | $(GEN)
	@mkdir -p $$(@D)
	$$($(1)_COMPILE) -MMD -MP -c -o $$@ $$<

$$($(1)_DIR)/libvfscore.a: $$($(1)_CORE_OBJ)
	@mkdir -p $$(@D)
	rm -f $$@ && $$(AR) rcs $$@ $$^

$$($(1)_DIR)/vfsim: $$($(1)_CLI_OBJ) $$($(1)_DIR)/libvfscore.a
	$$($(1)_LINK) -o $$@ $$^ $$(LE_$$($(1)_LE)_LIBS) $$($(1)_LIBS)

$$($(1)_DIR)/vfsim-driver: $$($(1)_DRV_OBJ) $$($(1)_DIR)/libvfscore.a
	$$($(1)_LINK) -o $$@ $$^ $$($(1)_LIBS)

$$($(1)_UNIT_BIN): $$($(1)_DIR)/tests/%: $$($(1)_DIR)/tests/unit/%.o $$($(1)_DIR)/libvfscore.a
	$$($(1)_LINK) $$(UNIT_WRAP_$$*) -o $$@ $$^ $$(CMOCKA_LIBS) $$($(1)_LIBS)

# Rewritten only when the commands change, so new flags rebuild everything.
$$($(1)_DIR)/.flags: FORCE
	@mkdir -p $$(@D); \
	new='$$(subst ','\'',$$($(1)_COMPILE) | $$($(1)_LINK) | $$($(1)_LIBS))'; \
	[ "$$$$new" = "$$$$(cat $$@ 2>/dev/null)" ] || printf '%s\n' "$$$$new" > $$@

-include $$($(1)_OBJ:.o=.d)
endef
$(foreach v,$(VARIANTS),$(eval $(call VARIANT_RULES,$(v))))

# The tables: core/NAME.tbl or cli/NAME.tbl made into C by
# scripts/NAME.awk, after what the tables share, scripts/tbl.awk (the
# kernels' rows: presets; the fields the shell reads: accessors; the
# shell's commands: commands).
vpath %.tbl core cli
$(GEN_DIR)/%.inc: %.tbl scripts/%.awk scripts/tbl.awk
	@mkdir -p $(@D)
	$(AWK) -f scripts/tbl.awk -f scripts/$*.awk $< >$@.tmp && mv $@.tmp $@

.PHONY: all asan tsan libedit none variants unit-tests driver run check bench difftest fuzz \
        install uninstall clean pictures lint-man man help dist FORCE
FORCE:

all: $(BUILD)/vfsim
asan: $(asan_DIR)/vfsim
# The out-of-memory test's vfsim (tests/oom/): the ASan build with vfsim's
# own allocations through tests/oom/failalloc.c, which fails the Nth.
OOM_WRAP := malloc calloc realloc strdup open_memstream
# (a unit test with an allocator of its own: core's calls fail in turn)
UNIT_WRAP_test_explore_oom := $(foreach f,malloc calloc realloc strdup,-Wl,--wrap=$(f))
$(asan_DIR)/vfsim-oom: tests/oom/failalloc.c $(asan_CLI_OBJ) $(asan_DIR)/libvfscore.a
	$(asan_COMPILE) $(foreach f,$(OOM_WRAP),-Wl,--wrap=$(f)) $(VFSIM_LDFLAGS) $(LDFLAGS) \
		-o $@ $^ $(LE_$(asan_LE)_LIBS) $(asan_LIBS)
tsan: $(tsan_DIR)/vfsim $(tsan_DIR)/tests/test_explore $(tsan_DIR)/tests/test_explore_agree \
      $(tsan_DIR)/tests/test_visited $(tsan_DIR)/tests/test_beside
libedit: $(libedit_DIR)/vfsim
none: $(none_DIR)/vfsim
variants: $(foreach v,$(VARIANTS),$($(v)_DIR)/vfsim)
unit-tests: $(asan_UNIT_BIN)
driver: $(BUILD)/vfsim-driver

# Quiet: one line while it builds, the compiler's log only when it fails.
# VFSIM_OWN_TTY: vfsim takes the terminal's foreground, so that Ctrl-C at its
# prompt reaches it alone and make does not exit 130.
RUN_LOG = $(BUILD)/make-run.log
run:
	@LINEEDIT=$(LINEEDIT) scripts/deps.sh run
	@mkdir -p $(BUILD); echo "make run: building $(BUILD)/vfsim (log: $(RUN_LOG))"; \
	 case "$(MAKEFLAGS)" in *j*) j= ;; *) j=-j$$(nproc 2>/dev/null || echo 2) ;; esac; \
	 if ! $(MAKE) $$j --no-print-directory $(BUILD)/vfsim >$(RUN_LOG) 2>&1; then \
	   cat $(RUN_LOG); echo "make run: the build failed (the log above is $(RUN_LOG))"; \
	   exit 1; fi
	@if [ -f examples/00-welcome.vfs ]; then \
	   VFSIM_OWN_TTY=1 exec $(BUILD)/vfsim -i examples/00-welcome.vfs; \
	 else VFSIM_OWN_TTY=1 exec $(BUILD)/vfsim -i; fi

# `+`: check.sh runs make itself and may share this make's job slots.
check:
	@scripts/deps.sh check
	+@scripts/check.sh

# the differential harness (tests/difftest/, scripts/difftest.sh): its runner
# uses only libc; `make check` runs a slice of it
$(BUILD)/difftest-runner: tests/difftest/runner.c $(BUILD)/.flags
	@mkdir -p $(@D)
	$(default_COMPILE) -o $@ $< $(LDFLAGS)

difftest: $(BUILD)/vfsim $(BUILD)/difftest-runner
	scripts/difftest.sh -v $(BUILD)/vfsim

# libFuzzer on tests/fuzz/fuzz_session.c; corpus, findings and logs in build/fuzz
FUZZ_SECONDS ?= 60
fuzz:
	+@scripts/fuzz.sh $(FUZZ_SECONDS)

bench pictures:
	@if [ -x scripts/$@.sh ]; then exec scripts/$@.sh; \
	 else echo "make $@: scripts/$@.sh does not exist yet" >&2; fi

MAN_PAGES := $(wildcard man/*.1 man/*.5)
lint-man:
	$(if $(MAN_PAGES),mandoc -T lint -W warning $(MAN_PAGES),@echo "make lint-man: no manual pages in man/ yet")

# vfsim(1)'s command list and vfsim(5)'s expect conditions, regenerated
# from the shell's tables
man: $(BUILD)/vfsim
	scripts/gen-man.sh $(BUILD)/vfsim man/vfsim.1 man/vfsim.5

install: $(BUILD)/vfsim
	$(INSTALL) -d $(DESTDIR)$(BINDIR)
	$(INSTALL) -m 755 $(BUILD)/vfsim $(DESTDIR)$(BINDIR)/vfsim
	@set -e; for s in 1 5; do \
	  if [ -f man/vfsim.$$s ]; then \
	    echo "$(INSTALL) -m 644 man/vfsim.$$s $(DESTDIR)$(MANDIR)/man$$s/vfsim.$$s"; \
	    $(INSTALL) -d $(DESTDIR)$(MANDIR)/man$$s; \
	    $(INSTALL) -m 644 man/vfsim.$$s $(DESTDIR)$(MANDIR)/man$$s/vfsim.$$s; \
	  fi; done
	@set -e; if [ -d examples ]; then \
	  echo "$(INSTALL) -m 644 examples/* $(DESTDIR)$(EXDIR)/"; \
	  cd examples && find . -type f | while read -r f; do \
	    $(INSTALL) -D -m 644 "$$f" "$(DESTDIR)$(EXDIR)/$$f"; done; fi
	$(INSTALL) -D -m 644 contrib/bash-completion/vfsim $(DESTDIR)$(BASHCOMPDIR)/vfsim
	$(INSTALL) -D -m 644 contrib/vim/syntax/vfs.vim $(DESTDIR)$(VIMDIR)/syntax/vfs.vim
	$(INSTALL) -D -m 644 contrib/vim/ftdetect/vfs.vim $(DESTDIR)$(VIMDIR)/ftdetect/vfs.vim

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/vfsim $(DESTDIR)$(MANDIR)/man1/vfsim.1 \
	      $(DESTDIR)$(MANDIR)/man5/vfsim.5
	rm -rf $(DESTDIR)$(EXDIR)
	rm -f $(DESTDIR)$(BASHCOMPDIR)/vfsim $(DESTDIR)$(VIMDIR)/syntax/vfs.vim \
	      $(DESTDIR)$(VIMDIR)/ftdetect/vfs.vim
	rmdir $(DESTDIR)$(PREFIX)/share/vfsim 2>/dev/null || true

# The sources as a tarball that builds: the files git tracks (as they are
# in the tree), or, outside git, everything but build/ and tarballs.
DIST = vfsim-$(VERSION)
dist:
	@set -e; tmp=$$(mktemp -d); trap 'rm -rf "$$tmp"' EXIT; \
	 if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then \
	   git ls-files; else find . -type f ! -path './build/*' ! -name '*.tar.gz' | sed 's|^\./||'; \
	 fi | while read -r f; do [ -f "$$f" ] && echo "$$f"; done >"$$tmp/files"; \
	 mkdir "$$tmp/$(DIST)"; tar -cf - -T "$$tmp/files" | tar -xf - -C "$$tmp/$(DIST)"; \
	 tar -C "$$tmp" -czf $(DIST).tar.gz $(DIST); \
	 echo "make dist: $(DIST).tar.gz ($$(wc -l <"$$tmp/files") files)"

clean:
	rm -rf build

help:
	@echo 'make [all]        build $(BUILD)/vfsim (LINEEDIT=readline|libedit|none)'
	@echo 'make run          check the tools, build quietly, open the shell on the welcome'
	@echo 'make check        install missing packages, build every variant, run every test'
	@echo 'make asan|tsan|libedit|none|variants   build one variant or all five'
	@echo 'make unit-tests   build the cmocka tests (build/asan/tests/test_*)'
	@echo 'make driver       build $(BUILD)/vfsim-driver from tests/driver/*.c'
	@echo 'make install|uninstall   PREFIX=$(PREFIX) DESTDIR=$(DESTDIR)'
	@echo 'make difftest     5,000 random scenarios per filesystem, vfsim against the host kernel'
	@echo 'make dist         $(DIST).tar.gz: the sources, a tarball that builds'
	@echo 'make man          regenerate the lists in man/vfsim.[15] from the tables'
	@echo 'make fuzz         libFuzzer for FUZZ_SECONDS=$(FUZZ_SECONDS) s (JOBS=N); build/fuzz/'
	@echo 'make bench|pictures|lint-man|clean'
