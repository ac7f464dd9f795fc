#!/usr/bin/env bash
# check.sh: build the variants, run every test stage, end with one line
# "N passed, N failed, N skipped".  Exit status 0 only when nothing failed.
# `make check` runs it; it can also be run alone (after scripts/deps.sh check).
#
#   VALGRIND=1        also run the conformance scenarios under valgrind
#   UPDATE_GOLDEN=1   rewrite tests/golden/*.out and *.status from this run
#   TEST_TIMEOUT=N    seconds one test (or one --check run) may take (300)
#   TSAN_TIMEOUT=N    seconds the explore unit tests may take under TSan (1200)
#
# Each stage is skipped when its inputs do not exist yet; a skipped test is
# never counted as passed.  A failed build counts as a failed test.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 2

MAKE=${MAKE:-make}
case ${MAKEFLAGS:-} in *j*) jobs= ;; *) jobs=-j$(nproc 2>/dev/null || echo 2) ;; esac
timeout=${TEST_TIMEOUT:-300}
# LeakSanitizer works in this sandbox (no ptrace restriction); keep leaks fatal.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0 skipped=0
pass()  { echo "PASS $1"; passed=$((passed + 1)); }
fail()  { echo "FAIL $1"; failed=$((failed + 1)); }
skip()  { echo "SKIP $1"; skipped=$((skipped + 1)); }
stage() { printf '\n== %s\n' "$1"; }
run()   { timeout -k 5 "$timeout" "$@"; }          # every test is time-boxed
indent() { sed 's/^/    /'; }

# build NAME TARGET...: one make run, counted as one test.
build() {
    local name=$1 out; shift
    # shellcheck disable=SC2086  # $jobs may be empty
    if out=$($MAKE $jobs --no-print-directory "$@" 2>&1); then
        pass "build $name"
    else
        printf '%s\n' "$out" | tail -n 40 | indent
        fail "build $name"
        return 1
    fi
}

# have PATTERN: true when the glob matches at least one file.
have() { compgen -G "$1" >/dev/null; }

# check_run NAME VFSIM FILE...: `vfsim --check FILE...`; its own PASS/FAIL lines
# pass through and its final "N passed, N failed" line is added to ours.
check_run() {
    local name=$1 bin=$2 out rc last p f; shift 2
    out=$(run "$bin" --check "$@" 2>&1); rc=$?
    last=$(printf '%s\n' "$out" | grep -E '^[0-9]+ passed, [0-9]+ failed$' | tail -n 1)
    printf '%s\n' "$out" | grep -vxF -e "$last"
    if [ -z "$last" ]; then
        fail "$name (exit $rc, no 'N passed, N failed' line)"
        return
    fi
    p=${last%% passed*}; f=${last#*, }; f=${f%% failed*}
    passed=$((passed + p)); failed=$((failed + f))
    if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then fail "$name (exit $rc)"; fi
    if [ "$rc" -eq 0 ] && [ "$f" -ne 0 ]; then fail "$name (exit 0 despite failures)"; fi
}

# verdict NAME STATUS OUTPUT: a test script's exit status as one test:
# 0 pass, 77 skip, else fail (with the end of its output, less "ok:" lines).
verdict() {
    case $2 in
    0)  pass "$1" ;;
    77) skip "$1: $(printf '%s\n' "$3" | tail -n 1)" ;;
    *)  printf '%s\n' "$3" | grep -v '^ok: ' | tail -n 30 | indent
        fail "$1 (exit $2)" ;;
    esac
}

# sh_tests DIR [VARIANT]: each tests/DIR/*.sh run by bash with VFSIM (the
# ASan build, or VARIANT's); a missing DIR is a skip, said and counted.
sh_tests() {
    local dir=$1 v=${2:-asan} t out rc
    have "tests/$dir/*.sh" || { skip "$dir (no tests/$dir/*.sh)"; return 0; }
    stage "$dir"
    needs "$v" "$dir" || return 0
    for t in tests/"$dir"/*.sh; do
        out=$(VFSIM=$top/${built[$v]} run bash "$t" </dev/null 2>&1); rc=$?
        verdict "$dir/$(basename "$t")" "$rc" "$out"
    done
}

# ---- builds ----------------------------------------------------------------
stage build
declare -A built=()
for v in default asan libedit none; do
    case $v in default) bin=build/vfsim ;; *) bin=build/$v/vfsim ;; esac
    build "$v" "$bin" && built[$v]=$bin
done
asan=${built[asan]:-}
shared=../shared/conformance

# needs VARIANT STAGE: the variant's binary, or a failure for the stage.
needs() {
    [ -n "${built[$1]:-}" ] && return 0
    fail "$2 (no $1 binary)"
    return 1
}

# ---- ThreadSanitizer: the explore engines' threads (started now, collected at the end) ----
# build/tsan: the explore unit tests, the explore scenarios and tests/tsan/*.vfs
# (searches long enough for the progress reader to meet the workers).  The
# unit tests take minutes under TSan: they run beside the other stages.
tsan_inputs=$(ls tests/scenarios/explore-*.vfs tests/tsan/*.vfs 2>/dev/null)
# (one suite in the long box, split in two; then the short ones, each
# in its own box; the names once, for the build, the runs and the line)
tsan_long=(test_explore test_explore_agree) tsan_short=(test_visited test_beside)
tsan_bins=("${tsan_long[@]}" "${tsan_short[@]}")
tsan_names=$(printf '%s, ' "${tsan_bins[@]}")
tsan_names=${tsan_names%, }
tsan_pid=
if [ -f tests/unit/test_explore.c ] || [ -n "$tsan_inputs" ]; then
    stage tsan-build
    if build tsan build/tsan/vfsim "${tsan_bins[@]/#/build/tsan/tests/}"; then
        built[tsan]=build/tsan/vfsim
        export TSAN_OPTIONS=${TSAN_OPTIONS:-halt_on_error=1:second_deadlock_stack=1}
        # (its own time box: 4-5 minutes alone on 2 cores, more beside the
        # rest; then the visited set's two inserting threads and the
        # search beside's pace, seconds)
        # shellcheck disable=SC2016  # $t and $r are the inner shell's
        ( CMOCKA_MESSAGE_OUTPUT=TAP timeout -k 5 "${TSAN_TIMEOUT:-1200}" \
              sh -c 'r=0; for t; do "build/tsan/tests/$t" || r=1; done; exit $r' \
              sh "${tsan_long[@]}" >"$tmp/tsan-unit" 2>&1
          rc=$?
          for t in "${tsan_short[@]}"; do
              CMOCKA_MESSAGE_OUTPUT=TAP timeout -k 5 300 \
                  "build/tsan/tests/$t" >>"$tmp/tsan-unit" 2>&1 ||
                  [ "$rc" -ne 0 ] || rc=1
          done
          echo "$rc" >"$tmp/tsan-unit.rc" ) &
        tsan_pid=$!
    fi
fi

# ---- unit tests (cmocka, AddressSanitizer build) -----------------------------
if have 'tests/unit/test_*.c'; then
    stage unit
    for src in tests/unit/test_*.c; do
        t=$(basename "$src" .c)
        build "tests/unit/$t" "build/asan/tests/$t" || continue
        out=$(CMOCKA_MESSAGE_OUTPUT=TAP run "build/asan/tests/$t" 2>&1); rc=$?
        cases=$(printf '%s\n' "$out" | sed -nE 's/^(not ok|ok) [0-9]+ - (.*)/\1 \2/p')
        bad=0
        while read -r word rest; do
            case $word in
            ok)  pass "unit/$t/$rest" ;;
            not) fail "unit/$t/${rest#ok }"; bad=1 ;;
            esac
        done <<<"$cases"
        if [ "$bad" -eq 1 ] || [ "$rc" -ne 0 ]; then
            printf '%s\n' "$out" | grep -vE '^(ok|not ok) [0-9]+ - ' | tail -n 30 | indent
            [ "$bad" -eq 0 ] && fail "unit/$t (exit $rc)"
        elif [ -z "$cases" ]; then
            pass "unit/$t"                  # ran, but reported no test cases
        fi
    done
fi

# ---- scenario tests ----------------------------------------------------------
if have 'tests/scenarios/*.vfs'; then
    stage scenarios
    needs asan scenarios && check_run scenarios "$asan" tests/scenarios/*.vfs
fi

# golden_one FILE.vfs: run it in its directory (NAME.args, NAME.status beside
# it) and compare with NAME.out; UPDATE_GOLDEN=1 rewrites them.
golden_one() {
    local vfs=$1 name dir args want_rc rc
    name=$(basename "$vfs" .vfs); dir=$(dirname "$vfs")
    args=; [ -f "$dir/$name.args" ] && read -r args <"$dir/$name.args"
    want_rc=0; [ -f "$dir/$name.status" ] && read -r want_rc <"$dir/$name.status"
    set -f
    # shellcheck disable=SC2086  # .args is split into words on purpose
    (cd "$dir" && NO_COLOR=1 run "$top/$asan" $args "$name.vfs" </dev/null >"$tmp/out" 2>&1)
    rc=$?
    set +f
    if [ -n "${UPDATE_GOLDEN:-}" ]; then
        cp "$tmp/out" "$dir/$name.out"
        if [ "$rc" -eq 0 ]; then rm -f "$dir/$name.status"; else echo "$rc" >"$dir/$name.status"; fi
        want_rc=$rc
    fi
    if diff -u --label "$name.out" --label "$name (got)" "$dir/$name.out" "$tmp/out" \
            >"$tmp/diff" 2>&1 && [ "$rc" -eq "$want_rc" ]; then
        pass "${dir#tests/}/$name"
    else
        indent <"$tmp/diff"
        [ "$rc" -eq "$want_rc" ] || echo "    exit status $rc, expected $want_rc"
        fail "${dir#tests/}/$name"
    fi
}

# ---- sizes of real use (tests/limits) -------------------------------------------
# sizes.py makes scenarios too large to keep (100,000 entries, 1 MiB of data)
# and runs them on the optimised build; *.vfs cases run like scenarios.
if have 'tests/limits/*'; then
    stage limits
    if have 'tests/limits/*.py' && needs default limits; then
        for py in tests/limits/*.py; do
            out=$(run python3 "$py" "${built[default]}" 2>&1); rc=$?
            printf '%s\n' "$out" | grep -vE '^(PASS|FAIL) ' | indent
            while read -r word name; do
                case $word in PASS) pass "$name" ;; FAIL) fail "$name" ;; esac
            done <<<"$(printf '%s\n' "$out" | grep -E '^(PASS|FAIL) ')"
            [ "$rc" -ne 0 ] && ! printf '%s\n' "$out" | grep -q '^FAIL ' &&
                fail "$py (exit $rc)"
        done
    fi
    # NAME.vfs with NAME.out: a golden test (a refused verdict exits 2);
    # NAME.sh: a script given $VFSIM (exit 0 to pass) that runs NAME.vfs
    # itself; other NAME.vfs: vfsim --check
    if have 'tests/limits/*.vfs' && needs asan limits; then
        checked=()
        for vfs in tests/limits/*.vfs; do
            if [ -f "${vfs%.vfs}.out" ]; then golden_one "$vfs"
            elif [ ! -f "${vfs%.vfs}.sh" ]; then checked+=("$vfs"); fi
        done
        [ "${#checked[@]}" -gt 0 ] && check_run limits "$asan" "${checked[@]}"
    fi
    for t in tests/limits/*.sh; do
        [ -f "$t" ] && needs asan limits || continue
        if out=$(VFSIM=$top/$asan run bash "$t" </dev/null 2>&1); then
            pass "limits/$(basename "$t")"
        else
            printf '%s\n' "$out" | tail -n 20 | indent
            fail "limits/$(basename "$t")"
        fi
    done
fi

# ---- golden output tests -------------------------------------------------------
if have 'tests/golden/*.vfs'; then
    stage golden
    needs asan golden && for vfs in tests/golden/*.vfs; do golden_one "$vfs"; done
fi

# ---- the shell's dealings with files and streams: save, history, stdout ----------
sh_tests cli

# ---- out of memory: every allocation of a session at the prompt fails once ---------
if [ -f tests/oom/oom.py ]; then
    stage oom
    if ! command -v python3 >/dev/null 2>&1; then
        skip "oom (no python3)"
    elif build vfsim-oom build/asan/vfsim-oom; then
        out=$(run python3 tests/oom/oom.py build/asan/vfsim-oom 2>&1); rc=$?
        printf '%s\n' "$out" | tail -n 1 | indent
        verdict oom/oom.py "$rc" "$out"
    fi
fi

# ---- the shared conformance scenarios --------------------------------------------
stage conformance
if ! have "$shared/*.vfs"; then
    skip "conformance ($shared has no scenarios: a clone without ../shared)"
elif needs asan conformance; then
    check_run conformance "$asan" "$shared"/*.vfs
fi

# ---- the lessons ----------------------------------------------------------------
if have 'examples/*.vfs'; then
    stage examples
    needs asan examples && check_run examples "$asan" examples/*.vfs
fi

# ---- inputs the fuzzers found (tests/fuzz/regress; scripts/fuzz.sh, tests/fuzz/gen.py) ----
# Each runs as a script and from stdin through the AddressSanitizer build, in
# its own directory: exit status 0, 1 or 2, nothing from a sanitizer.
if have 'tests/fuzz/regress/*.vfs'; then
    stage fuzz-regress
    needs asan fuzz-regress && for vfs in tests/fuzz/regress/*.vfs; do
        name=$(basename "$vfs"); bad=
        for mode in file stdin; do
            if [ "$mode" = file ]; then
                (cd tests/fuzz/regress && NO_COLOR=1 run "$top/$asan" "$name" </dev/null >/dev/null 2>"$tmp/err")
            else
                (cd tests/fuzz/regress && NO_COLOR=1 run "$top/$asan" <"$name" >/dev/null 2>"$tmp/err")
            fi
            rc=$?
            if [ "$rc" -gt 2 ] || grep -qE 'Sanitizer|runtime error:' "$tmp/err"; then
                grep -vE '^\s*$' "$tmp/err" | head -n 30 | indent
                bad="$bad $mode(exit $rc)"
            fi
        done
        if [ -z "$bad" ]; then pass "fuzz-regress/$name"; else fail "fuzz-regress/$name:$bad"; fi
    done
fi

# ---- manual pages ------------------------------------------------------------------
if have 'man/vfsim.[15]'; then
    stage man
    for page in man/vfsim.1 man/vfsim.5; do
        [ -f "$page" ] || continue
        if out=$(mandoc -T lint -W warning "$page" 2>&1); then
            pass "man/$(basename "$page")"
        else
            printf '%s\n' "$out" | indent
            fail "man/$(basename "$page")"
        fi
    done
    # the command list in vfsim(1) and the conditions in vfsim(5) are the
    # tables' (scripts/gen-man.sh)
    if [ -f man/vfsim.1 ] && needs default man/commands; then
        if out=$(run scripts/gen-man.sh --check "${built[default]}" man/vfsim.1 man/vfsim.5 2>&1); then
            pass "man/commands"
        else
            printf '%s\n' "$out" | tail -n 40 | indent
            fail "man/commands (run 'make man')"
        fi
    fi
fi

# ---- interactive tests, once per line editor -----------------------------------------
if have 'tests/interactive/*.sh' || have 'tests/interactive/*.exp'; then
    stage lineedit
    for le in readline libedit none; do
        v=$le; [ "$le" = readline ] && v=default
        needs "$v" "lineedit/$le" || continue
        for t in tests/interactive/*.sh tests/interactive/*.exp; do
            [ -f "$t" ] || continue
            case $t in *.exp) cmd=(expect -f "$t") ;; *) cmd=(bash "$t") ;; esac
            out=$(VFSIM=$top/${built[$v]} LINEEDIT=$le run "${cmd[@]}" </dev/null 2>&1); rc=$?
            verdict "lineedit/$le/$(basename "$t")" "$rc" "$out"
        done
    done
fi

# ---- pictures: each export read back by its reader (python, dot, chromium) ----
# tests/pictures/*.sh: exit 0 pass, 77 skip (a reader is missing), else fail.
sh_tests pictures

# ---- the shell as a user meets it: make run, dist, deps.sh, jq, the README ----
sh_tests shell default

# ---- a second front end over libvfscore ---------------------------------------------------
if have 'tests/driver/*.c'; then
    stage driver
    if build driver build/vfsim-driver; then
        for vfs in tests/driver/*.vfs; do
            [ -f "$vfs" ] || continue
            if out=$(run build/vfsim-driver "$vfs" 2>&1); then
                pass "driver/$(basename "$vfs")"
            else
                printf '%s\n' "$out" | tail -n 30 | indent
                fail "driver/$(basename "$vfs")"
            fi
        done
    fi
fi

# ---- the differential harness: vfsim against the host kernel (make difftest) ----
# 200 random scenarios per filesystem through the ASan build; a filesystem
# the machine cannot offer (tmpfs without root) is skipped, not passed.
if [ -f tests/difftest/runner.c ] && command -v python3 >/dev/null; then
    stage difftest
    if needs asan difftest && build difftest-runner build/difftest-runner; then
        out=$(run scripts/difftest.sh -n "${DIFFTEST_COUNT:-200}" -v "$asan" 2>&1)
        printf '%s\n' "$out" | grep -vE '^(PASS|FAIL) difftest/' | indent
        while read -r word name rest; do
            case $word in
            PASS) pass "$name" ;;
            FAIL) fail "$name $rest" ;;
            esac
        done < <(printf '%s\n' "$out" | grep -E '^(PASS|FAIL) difftest/')
        printf '%s\n' "$out" | grep -E '^SKIP ' || true
        printf '%s\n' "$out" | grep -qE '^(PASS|FAIL|SKIP) difftest/' ||
            fail "difftest (no result)"
    fi
fi

# ---- valgrind (VALGRIND=1) ------------------------------------------------------------------
if [ -n "${VALGRIND:-}" ] && have "$shared/*.vfs"; then
    stage valgrind
    if needs default valgrind; then
        for vfs in "$shared"/*.vfs; do
            if out=$(run valgrind -q --error-exitcode=3 --leak-check=full \
                    build/vfsim --check "$vfs" 2>&1); then
                pass "valgrind/$(basename "$vfs")"
            else
                printf '%s\n' "$out" | tail -n 40 | indent
                fail "valgrind/$(basename "$vfs")"
            fi
        done
    fi
fi

# ---- ThreadSanitizer (build/tsan, started after the builds) ------------------------------
if [ -n "${built[tsan]:-}" ]; then
    stage tsan
    # shellcheck disable=SC2086  # one file name per word
    [ -n "$tsan_inputs" ] && check_run tsan "${built[tsan]}" $tsan_inputs
    if [ -n "$tsan_pid" ]; then
        wait "$tsan_pid"
        rc=$(cat "$tmp/tsan-unit.rc" 2>/dev/null || echo 1)
        n=$(grep -c '^ok ' "$tmp/tsan-unit")
        if [ "$rc" -eq 0 ] && [ "$n" -gt 0 ] && ! grep -q 'ThreadSanitizer' "$tmp/tsan-unit"; then
            pass "tsan/unit/$tsan_names ($n cases)"
        else
            grep -vE '^ok [0-9]+ - ' "$tmp/tsan-unit" | head -n 40 | indent
            fail "tsan/unit/$tsan_names (exit $rc)"
        fi
    fi
fi

echo
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
