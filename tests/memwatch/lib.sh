# Shared by the memwatch test scripts.  Each script gets: $1 memwatch binary,
# $2 directory of the helper programs.  Failing checks exit non-zero.
set -u
MW=$1
HELP=$2
T=$(mktemp -d /tmp/memwatch-test.XXXXXX)
trap 'rm -rf "$T"' EXIT
cd "$T"

# Targets whose processes are counted run without LeakSanitizer's exit
# check (sanitizer builds): it clones a tracer task that shares the
# target's memory, so a sample taken as a process exits can see one more
# process and twice its RSS (memwatch_spike lost its lone-process exit row
# so, ~1 run in 20 on a loaded 2-core machine).  The helpers leak nothing
# worth finding; memwatch itself keeps the check.
NO_LSAN=(env "ASAN_OPTIONS=${ASAN_OPTIONS:-}:detect_leaks=0")

fail() { echo "FAIL: $*" >&2; exit 1; }
ok() { echo "ok: $*"; }

# Every line has the header's number of fields and the file ends in "\n".
csv_valid() {
  [ -s "$1" ] || fail "$1 is empty"
  [ "$(tail -c1 "$1" | od -An -c | tr -d ' ')" = '\n' ] || fail "$1: last row incomplete"
  awk -F, 'NR==1{n=NF} NF!=n{print FILENAME ":" NR ": " NF " fields, header has " n; bad=1} END{exit bad}' "$1" \
    || fail "$1: rows with a wrong number of fields"
}

# json_run FILE PHASE KEY: KEY of the first run of PHASE in summarize --json.
json_run() {
  grep -o "{\"phase\": \"$2\"[^}]*}" "$1" | head -1 | grep -o "\"$3\": [^,}]*" | sed 's/.*: //; s/"//g'
}

# within A B PCT: |A-B| <= PCT% of B
within() { awk -v a="$1" -v b="$2" -v p="$3" 'BEGIN{d=a-b; if(d<0)d=-d; exit !(d<=b*p/100)}'; }

# expect_error EXPECTED_TEXT CMD...: non-zero exit, one stderr line with TEXT.
expect_error() {
  local want=$1; shift
  "$@" >out.txt 2>err.txt && fail "'$*' succeeded"
  [ "$(wc -l <err.txt)" -eq 1 ] || { cat err.txt; fail "'$*': not one line of error"; }
  grep -q -- "$want" err.txt || { cat err.txt; fail "'$*': error lacks '$want'"; }
  ok "$(cat err.txt)"
}
