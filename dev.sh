#!/usr/bin/env bash
# acpcbot's two commands, each of which sets itself up first:
#   ./dev.sh match [ACPCBOT MATCH ARGS...]   a local duplicate match (default: PLICAS vs dpp)
#   ./dev.sh test  [PYTEST ARGS...]          ruff, mypy --strict, the import contracts, the
#                                            docs (strict), all tests (what CI runs;
#                                            mosquitto, chromium and postgresql from Debian
#                                            if missing)
#   ./dev.sh test --fast [PYTEST ARGS...]    the same checks, then only the fast tier: the
#                                            tests that stay in-process (not e2e, not slow)
# and two helpers:
#   ./dev.sh extras EXTRA...                 add extras to .venv (fast mqtt plot cluster
#                                            bench docs web browser test)
#   ./dev.sh docs [serve]                    build the documentation site into site/ (strict)
# The virtual environment lives in .venv (override with ACPCBOT_VENV); `. .venv/bin/activate`
# puts acpcbot and acpc-dealer on your PATH.
set -euo pipefail
cd "$(dirname "$0")"
venv=${ACPCBOT_VENV:-.venv}

die() { echo "dev.sh: $*" >&2; exit 1; }

# The comment block at the top of this file, without its '#'.
usage() { sed -n '2,/^[^#]/p' "$0" | sed -n 's/^# \{0,1\}//p'; }

ensure_python() {
    local py=${PYTHON:-python3}
    command -v "$py" >/dev/null || die "python3 (3.11 or newer) is needed"
    "$py" -c 'import sys; sys.exit(sys.version_info < (3, 11))' \
        || die "Python 3.11 or newer is needed, found $("$py" --version 2>&1)"
    if [ ! -x "$venv/bin/python" ]; then
        "$py" -m venv "$venv" 2>/dev/null || {
            # Debian's python3 lacks ensurepip until python3-venv is installed.
            install_debian_packages python3-venv
            "$py" -m venv "$venv"
        }
    fi
}

install_debian_packages() {
    command -v apt-get >/dev/null || die "please install: $*"
    local sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -qq && $sudo apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}

# The telemetry tests start a real MQTT broker: Debian's mosquitto (with mosquitto_passwd).
ensure_mosquitto() {
    if ! command -v mosquitto >/dev/null && [ ! -x /usr/sbin/mosquitto ]; then
        echo "dev.sh: installing mosquitto (Debian's package) for the telemetry tests" >&2
        install_debian_packages mosquitto
    fi
}

# The web page's browser tests drive a real headless browser: Debian's chromium, through
# Playwright (from the test extra), which never downloads a browser of its own here.
ensure_chromium() {
    if [ -z "${ACPCBOT_CHROMIUM:-}" ] && ! command -v chromium >/dev/null; then
        echo "dev.sh: installing chromium (Debian's package) for the web page's browser tests" >&2
        install_debian_packages chromium
    fi
}

# The benchmark server's database tests start a real PostgreSQL (tests/postgresserver.py):
# Debian's postgresql, whose initdb and postgres they run in a temporary folder.
ensure_postgresql() {
    if ! compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null; then
        echo "dev.sh: installing postgresql (Debian's package) for the server's database tests" >&2
        install_debian_packages postgresql
    fi
}

# The extras pyproject.toml declares, space-separated.
known_extras() {
    "$venv/bin/python" -c 'import tomllib
with open("pyproject.toml", "rb") as f:
    print(*tomllib.load(f)["project"]["optional-dependencies"])'
}

# Install the project (editable) with the given extras (comma-separated), once per
# pyproject.toml version.
install_project() {
    local extra=$1
    local stamp
    stamp="$venv/.acpcbot-$extra-$(sha1sum pyproject.toml | cut -c1-12)"
    if [ ! -f "$stamp" ]; then
        echo "dev.sh: installing acpcbot[$extra] into $venv (once; the log is $venv/pip.log)" >&2
        # pip's and setuptools' chatter goes to the log; it is shown only if the install fails.
        if ! { "$venv/bin/python" -m pip install -q --upgrade pip \
                && "$venv/bin/python" -m pip install -q -e ".[$extra]"; } >"$venv/pip.log" 2>&1; then
            cat "$venv/pip.log" >&2
            die "installing acpcbot[$extra] failed (pip's output above)"
        fi
        touch "$stamp"
    fi
}

cmd=${1:-}
[ $# -gt 0 ] && shift
case "$cmd" in
    match)
        ensure_python
        install_project fast
        if [ $# -eq 0 ]; then
            # What the project is for, sized to take three to four minutes on two cores.
            set -- plicas dpp --hands 30000 --seed 42
        fi
        exec "$venv/bin/acpcbot" match "$@"
        ;;
    test)
        tier=()
        if [ "${1:-}" = --fast ]; then
            shift
            # The edit loop's tier (tests/tiers.py): no test that starts a process (e2e: our
            # commands, forked halves, mosquitto, Dask, docker) or takes seconds (slow).
            tier=(-m "not e2e and not slow")
        fi
        ensure_python
        if [ ${#tier[@]} -eq 0 ]; then
            ensure_mosquitto
            ensure_chromium
            ensure_postgresql
            # Playwright drives that chromium: the browser tests' extra, not the fast tier's.
            install_project test,browser
        else
            install_project test
        fi
        export NUMBA_CACHE_DIR=${NUMBA_CACHE_DIR:-$PWD/.numba-cache}
        # Python's compiled modules and pytest's rewritten test modules are kept between
        # runs in .pycache (git-ignored), even where the environment says
        # PYTHONDONTWRITEBYTECODE: without them each test process compiles every module
        # again, about 5 s of CPU time a process, more than a tenth of the fast tier.
        export PYTHONPYCACHEPREFIX=${PYTHONPYCACHEPREFIX:-$PWD/.pycache}
        unset PYTHONDONTWRITEBYTECODE
        if [ ${#tier[@]} -gt 0 ] && [ -z "$(ls -A "$NUMBA_CACHE_DIR" 2>/dev/null)" ]; then
            echo "dev.sh: no compiled kernels in $NUMBA_CACHE_DIR yet: this run compiles" \
                "them first (later runs load them)" >&2
        fi
        "$venv/bin/ruff" check .
        "$venv/bin/ruff" format --check .
        "$venv/bin/mypy"
        "$venv/bin/lint-imports" --no-cache >/dev/null || "$venv/bin/lint-imports" --no-cache
        # The documentation site, strict: a broken link or anchor, or a page left out of the
        # nav, fails. Its log only when it fails (mkdocs --quiet would hide the warnings
        # that strict mode counts).
        if ! docs_log=$(NO_MKDOCS_2_WARNING=1 "$venv/bin/mkdocs" build --strict 2>&1); then
            echo "$docs_log" >&2
            die "the documentation site did not build (mkdocs' log above)"
        fi
        # Test processes (pytest-xdist; "-n 0" runs the tests in this process): the fast
        # tier's tests keep a core busy each, so two on two cores; the whole suite's often
        # wait on the processes and sockets they start, so a third keeps both cores busy
        # (the 1,905 tests on two free cores: 467 s against 515 s with two).
        workers=3
        [ ${#tier[@]} -eq 0 ] || workers=2
        # --dist loadgroup: the tests of one xdist_group (those that share a fixture costly
        # to make) run in one of them, the others wherever a process is free.
        exec "$venv/bin/pytest" -n "$workers" --dist loadgroup ${tier[@]+"${tier[@]}"} "$@"
        ;;
    extras)
        ensure_python
        known=$(known_extras)
        [ $# -gt 0 ] || die "name the extras to add: $known"
        for extra in "$@"; do
            case " $known " in
                *" $extra "*) ;;
                *) die "unknown extra '$extra' (the extras: $known)" ;;
            esac
        done
        install_project "$(IFS=,; echo "$*")"
        echo "dev.sh: $venv has acpcbot[$(IFS=,; echo "$*")]" >&2
        ;;
    docs)
        ensure_python
        install_project docs
        export NO_MKDOCS_2_WARNING=1  # material's banner about its successor, on every build
        if [ "${1:-}" = serve ]; then
            shift
            exec "$venv/bin/mkdocs" serve --strict "$@"
        fi
        exec "$venv/bin/mkdocs" build --strict "$@"
        ;;
    ""|-h|--help|help)
        usage
        [ -n "$cmd" ] || exit 2
        ;;
    *)
        echo "dev.sh: unknown command '$cmd'" >&2
        usage >&2
        exit 2
        ;;
esac
